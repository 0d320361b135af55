// The exported bot's entry point. export/exporter.cpp appends this file to
// submission.cpp after the engine sources and the embedded weights
// (kWeightsInDataBin, kWeightsBase64), so it is compiled only there.
//
//   ./bot                        plays one game over the contest protocol
//   ./bot --eval-positions FILE  prints the net's outputs (parity tests):
//       each input line is INIT's 10 rows of 17 digits followed by moves
//       "r1 c1 r2 c2" (the pass is -1 -1 -1 -1) played from that board;
//       each output line is "W D L margin" then the logits of the legal
//       moves in generation order, the pass last.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

namespace mushroom::exported {

nn::Model load_weights() {
  std::vector<uint8_t> bytes;
  if (kWeightsInDataBin) {
    std::ifstream in("data.bin", std::ios::binary);
    if (!in) throw std::runtime_error("cannot open data.bin in the working directory (the weights are there)");
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    bytes = nn::base64_decode(kWeightsBase64);
  }
  return nn::decode_model(bytes.data(), bytes.size());
}

// The engine's `nn` agent with its defaults: PUCT MCTS on the network,
// exact endgames, time planned from the CPU-time bank.
std::unique_ptr<Agent> make_bot_agent() {
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

int eval_positions(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "bot: cannot open " << path << std::endl;
    return 2;
  }
  nn::PlainNet net(load_weights());
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
    MoveList list;
    generate_moves(pos, list);
    std::vector<Move> moves(list.begin(), list.end());
    moves.push_back(Move::pass());
    nn::NetEval e;
    net.evaluate(pos, moves.data(), int(moves.size()), e);
    std::printf("%.6f %.6f %.6f %.6f", e.wdl[0], e.wdl[1], e.wdl[2], e.margin);
    for (const float l : e.logits) std::printf(" %.6f", l);
    std::printf("\n");
  }
  return 0;
}

}  // namespace mushroom::exported

int main(int argc, char** argv) {
  using namespace mushroom;
  if (argc == 3 && std::string(argv[1]) == "--eval-positions") return exported::eval_positions(argv[2]);
  if (argc != 1) {
    std::cerr << "usage: " << argv[0] << " (plays the contest protocol on stdin/stdout)\n"
              << "       " << argv[0] << " --eval-positions FILE" << std::endl;
    return 2;
  }
  std::ios::sync_with_stdio(false);
  BotSession session(exported::make_bot_agent, std::cout, std::cerr);
  return session.run(std::cin);
}
