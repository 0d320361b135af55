// The exported bot's entry point. export/exporter.cpp appends this file to
// submission.cpp after the engine sources and the embedded weights
// (kLearnedEvalBot, kWeightsInDataBin, kWeightsBase64), so it is compiled
// only there.
//
//   ./bot                        plays one game over the contest protocol
//   ./bot --eval-positions FILE  prints the weights' outputs (parity tests):
//       each input line is INIT's 10 rows of 17 digits followed by moves
//       "r1 c1 r2 c2" (the pass is -1 -1 -1 -1) played from that board;
//       each output line is, for a net, "W D L margin" then the logits of
//       the legal moves in generation order, the pass last; for a learned
//       evaluation, its value for the side to move in 1/16 cells.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>

namespace mushroom::exported {

std::vector<uint8_t> weight_bytes() {
  std::vector<uint8_t> bytes;
  if (kWeightsInDataBin) {
    std::ifstream in("data.bin", std::ios::binary);
    if (!in) throw std::runtime_error("cannot open data.bin in the working directory (the weights are there)");
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    bytes = nn::base64_decode(kWeightsBase64);
  }
  return bytes;
}

nn::Model load_weights() {
  const std::vector<uint8_t> bytes = weight_bytes();
  return nn::decode_model(bytes.data(), bytes.size());
}

LearnedEvalModel load_evaluation() {
  const std::vector<uint8_t> bytes = weight_bytes();
  return parse_learned_eval(std::string(bytes.begin(), bytes.end()),
                            kWeightsInDataBin ? "data.bin" : "the embedded evaluation");
}

// The engine's `alphabeta` agent with its defaults and the learned
// evaluation; the hand evaluation when the weights do not load.
std::unique_ptr<Agent> make_alphabeta_agent() {
  AlphaBetaAgentConfig c;  // the declared defaults, as `alphabeta` without options
  try {
    c.eval_model = std::make_shared<LearnedEvalModel>(load_evaluation());
  } catch (const std::exception& e) {
    std::cerr << "bot: error: the learned evaluation did not load (" << e.what()
              << "); playing with the hand evaluation" << std::endl;
  }
  return std::make_unique<AlphaBetaAgent>(c);
}

// The engine's `nn` agent with its defaults: PUCT MCTS on the network,
// exact endgames, time planned from the CPU-time bank.
std::unique_ptr<Agent> make_nn_agent() {
  MctsAgentConfig c;  // the declared defaults (agents/search_agents.h), as `nn` without options
  c.agent_name = "mushroom-export";
  c.mcts.seed = 1;
  try {
    const nn::Model model = load_weights();
    c.custom_evaluator = std::make_shared<nn::NnEvaluator>(std::make_shared<nn::PlainNet>(model));
  } catch (const std::exception& e) {
    // Playing on without the net beats forfeiting: the no-net MCTS still
    // beats greedy. Said loudly, on the error stream.
    std::cerr << "bot: error: the weights did not load (" << e.what()
              << "); playing without the network (material evaluator)" << std::endl;
  }
  return std::make_unique<MctsAgent>(c);
}

std::unique_ptr<Agent> make_bot_agent() { return kLearnedEvalBot ? make_alphabeta_agent() : make_nn_agent(); }

// The positions of an --eval-positions file, each passed to `print`;
// returns the exit code (2 naming the line on a bad one).
int for_each_position(const char* path, const std::function<void(const Position&)>& print) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "bot: cannot open " << path << std::endl;
    return 2;
  }
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words.size() < 10 || (words.size() - 10) % 4 != 0) {
      std::cerr << "bot: " << path << ":" << line_number << ": expected 10 board rows and moves of 4 numbers" << std::endl;
      return 2;
    }
    Position pos = parse_init_rows(std::vector<std::string_view>(words.begin(), words.begin() + 10));
    for (size_t i = 10; i < words.size(); i += 4) {
      const auto m = parse_move_words(words, i);
      const char* why = nullptr;
      if (!m || !pos.is_legal(*m, &why)) {
        std::cerr << "bot: " << path << ":" << line_number << ": illegal move at word " << i + 1 << std::endl;
        return 2;
      }
      pos.apply(*m);
    }
    print(pos);
  }
  return 0;
}

int eval_positions(const char* path) {
  if (kLearnedEvalBot) {
    LearnedEvaluator evaluation(load_evaluation());
    return for_each_position(path, [&](const Position& pos) {
      evaluation.set_root(pos);
      std::printf("%d\n", evaluation.evaluate(pos, best_margin_gain(pos)));
    });
  }
  nn::PlainNet net(load_weights());
  return for_each_position(path, [&](const Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    std::vector<Move> moves(list.begin(), list.end());
    moves.push_back(Move::pass());
    nn::NetEval e;
    net.evaluate(pos, moves.data(), int(moves.size()), e);
    std::printf("%.6f %.6f %.6f %.6f", e.wdl[0], e.wdl[1], e.wdl[2], e.margin);
    for (const float l : e.logits) std::printf(" %.6f", l);
    std::printf("\n");
  });
}

}  // namespace mushroom::exported

int main(int argc, char** argv) {
  using namespace mushroom;
  if (argc == 3 && std::string(argv[1]) == "--eval-positions") {
    try {
      return exported::eval_positions(argv[2]);
    } catch (const std::exception& e) {
      std::cerr << "bot: error: " << e.what() << std::endl;
      return 2;
    }
  }
  if (argc != 1) {
    std::cerr << "usage: " << argv[0] << " (plays the contest protocol on stdin/stdout)\n"
              << "       " << argv[0] << " --eval-positions FILE" << std::endl;
    return 2;
  }
  std::ios::sync_with_stdio(false);
  BotSession session(exported::make_bot_agent, std::cout, std::cerr);
  return session.run(std::cin);
}
