// The exported bot's entry point. export/exporter.cpp appends this file to
// submission.cpp after the engine sources and the embedded weights
// (kLearnedEvalBot, kWeightsInDataBin, kWeightsBase64, kProbCutFit,
// kAgentOptions), so it is compiled only there. How the judge builds and
// starts it: README.md, "The judge".
//
//   ./main [ARG ...]                plays one game over the contest protocol;
//       the judge starts it as `./main NYPC`, which is taken quietly; any
//       other argument that is not one of the options below is noted on
//       stderr and changes nothing
//   ./main --require-weights        the same, but missing, corrupt or other
//       weights (a data.bin whose bytes are not those this source was
//       exported with: kWeightsHash) end the process (exit 2) before OK
//       instead of playing without them or with them;
//       also when $MUSHROOM_REQUIRE_WEIGHTS is set and not "0" (the arena and
//       the ladder set it, so a misplaced data.bin is a forfeit, not a
//       silently weaker bot)
//   ./main --eval-positions FILE    prints the weights' outputs (parity tests):
//       each input line is INIT's 10 rows of 17 digits followed by moves
//       "r1 c1 r2 c2" (the pass is -1 -1 -1 -1) played from that board;
//       each output line is, for a net, "W D L margin" then the logits of
//       the legal moves in generation order, the pass last; for a learned
//       evaluation, its value for the side to move in 1/16 cells.
//   ./main --help                   this usage, on stdout
//
// data.bin is looked for in the working directory, then beside the
// executable; stderr names the file that was loaded.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mushroom::exported {

namespace fs = std::filesystem;

// The places data.bin may be, in the order they are tried: the working
// directory, then the executable's folder (one entry when they agree).
std::vector<fs::path> data_bin_places(const char* argv0) {
  std::error_code ec;
  std::vector<fs::path> places;
  const fs::path cwd = fs::current_path(ec);
  places.push_back(ec ? fs::path("data.bin") : cwd / "data.bin");
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec && argv0 && std::string(argv0).find('/') != std::string::npos) exe = fs::absolute(argv0, ec);
  if (!exe.empty() && !ec) {
    const fs::path beside = exe.parent_path() / "data.bin";
    if (fs::weakly_canonical(beside, ec) != fs::weakly_canonical(places[0], ec)) places.push_back(beside);
  }
  return places;
}

// The weights and where they came from, parsed and checked; `error` says
// why there are none.
struct LoadedWeights {
  std::shared_ptr<const nnue::Network> evaluation;  // kLearnedEvalBot
  std::shared_ptr<const nn::Model> net;                // otherwise
  std::string source;
  std::string error;
  // Weights that load but are not the ones exported with this source (a
  // data.bin left from another export): says which, "" when they match.
  std::string mismatch;
  bool ok() const { return error.empty(); }
};


LoadedWeights load_weights(const char* argv0) {
  LoadedWeights w;
  std::vector<uint8_t> bytes;
  try {
    if (kWeightsInDataBin) {
      std::string searched;
      for (const fs::path& place : data_bin_places(argv0)) {
        std::ifstream in(place, std::ios::binary);
        if (!in) {
          searched += (searched.empty() ? "" : ", ") + place.string();
          continue;
        }
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        w.source = place.string();
        break;
      }
      if (w.source.empty()) throw std::runtime_error("cannot find data.bin (the weights are there); looked for " + searched);
      const unsigned long long hash = fnv1a64(bytes.data(), bytes.size());
      if (hash != kWeightsHash || bytes.size() != kWeightsBytes)
        w.mismatch = w.source + " holds other weights than this source was exported with (" +
                     std::to_string(bytes.size()) + " bytes, FNV-1a " + hex64(hash) + "; expected " +
                     std::to_string(kWeightsBytes) + " bytes, " + hex64(kWeightsHash) + ")";
    } else {
      bytes = nn::base64_decode(kWeightsBase64);
      w.source = "the weights embedded in the source";
    }
    if (kLearnedEvalBot)
      w.evaluation = std::make_shared<nnue::Network>(nnue::parse_network(std::string(bytes.begin(), bytes.end()), w.source));
    else
      w.net = std::make_shared<nn::Model>(nn::decode_model(bytes.data(), bytes.size()));
  } catch (const std::exception& e) {
    w.error = e.what();
    if (!w.source.empty() && w.error.find(w.source) == std::string::npos) w.error = w.source + ": " + w.error;
  }
  return w;
}

// The Multi-ProbCut fit embedded with the weights (kProbCutFit), read once;
// null when there is none, or when the bot plays without the weights it was
// exported with (the hand evaluation, or another data.bin): a fit belongs
// to one evaluation.
std::shared_ptr<const ProbCutFit> embedded_probcut_fit(const LoadedWeights& w) {
  if (kProbCutFit[0] == '\0' || !w.evaluation || !w.mismatch.empty()) return nullptr;
  static const auto fit = std::make_shared<const ProbCutFit>(
      parse_probcut_fit(kProbCutFit, "the Multi-ProbCut fit embedded in the source"));
  return fit;
}

// The `alphabeta` agent's declared defaults with the options this source
// was exported with (kAgentOptions, "key=value,...") read over them by the
// engine's own table. export-bot checked them; should they not read, the
// bot says so and plays with the defaults rather than forfeit.
AlphaBetaAgentConfig exported_agent_config() {
  std::vector<std::pair<std::string, std::string>> values;
  const std::string text = kAgentOptions;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string pair = text.substr(start, end - start);
    const size_t eq = pair.find('=');
    values.emplace_back(pair.substr(0, eq), eq == std::string::npos ? std::string() : pair.substr(eq + 1));
    start = end + 1;
  }
  try {
    OptionSource source("the exported bot's", values);
    AlphaBetaAgentConfig c = read_alphabeta_options(source);
    if (const auto key = source.unread()) throw std::invalid_argument("no option '" + *key + "'");
    // What the agent will play with, read back from the config by the
    // same table: each exported option with the value it took.
    std::string taken;
    for (const auto& [key, value] : values)
      taken += (taken.empty() ? "" : ",") + key + "=" + alphabeta_settings().value_text(c, key);
    if (!taken.empty()) std::cerr << "bot: playing with the agent options " << taken << std::endl;
    return c;
  } catch (const std::exception& e) {
    std::cerr << "bot: error: the exported options " << text << " do not read (" << e.what()
              << "); playing with the defaults" << std::endl;
    return AlphaBetaAgentConfig{};
  }
}

// The engine's `alphabeta` agent with its exported options, the learned
// evaluation and its Multi-ProbCut fit; the hand evaluation when the
// weights did not load.
std::unique_ptr<Agent> make_alphabeta_agent(const LoadedWeights& w) {
  AlphaBetaAgentConfig c = exported_agent_config();
  c.eval_model = w.evaluation;  // shared, read once
  c.probcut_fit = embedded_probcut_fit(w);
  return std::make_unique<AlphaBetaAgent>(c);
}

// The engine's `nn` agent with its defaults: PUCT MCTS on the network,
// exact endgames, time planned from the CPU-time bank; the material
// evaluator when the weights did not load.
std::unique_ptr<Agent> make_nn_agent(const LoadedWeights& w) {
  MctsAgentConfig c;  // the declared defaults (agents/search_agents.h), as `nn` without options
  c.agent_name = "mushroom-export";
  c.mcts.seed = 1;
  if (w.net) c.custom_evaluator = std::make_shared<nn::NnEvaluator>(std::make_shared<nn::PlainNet>(*w.net));
  return std::make_unique<MctsAgent>(c);
}

std::unique_ptr<Agent> make_bot_agent(const LoadedWeights& w) {
  return kLearnedEvalBot ? make_alphabeta_agent(w) : make_nn_agent(w);
}

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

int eval_positions(const char* path, const LoadedWeights& w) {
  if (kLearnedEvalBot) {
    nnue::Evaluator evaluation(*w.evaluation);
    return for_each_position(path, [&](const Position& pos) {
      evaluation.set_root(pos);
      std::printf("%d\n", evaluation.evaluate(pos, scan_leaf_moves(pos)));
    });
  }
  nn::PlainNet net(*w.net);
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

// The command line. Only the bot's own options change what it does; any
// other argument (the judge's NYPC among them) is kept to be noted.
struct Arguments {
  bool help = false;
  bool require_weights = false;
  std::optional<std::string> eval_positions;
  std::vector<std::string> ignored;
  std::string error;  // one of our own options was malformed
};

bool env_requires_weights() {
  const char* v = std::getenv("MUSHROOM_REQUIRE_WEIGHTS");
  return v && *v && std::string(v) != "0";
}

Arguments parse_arguments(int argc, char** argv) {
  Arguments a;
  a.require_weights = env_requires_weights();
  const std::string eval_flag = "--eval-positions";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") a.help = true;
    else if (arg == "--require-weights") a.require_weights = true;
    else if (arg == eval_flag && i + 1 < argc) a.eval_positions = argv[++i];
    else if (arg == eval_flag) a.error = eval_flag + " needs a FILE";
    else if (arg.rfind(eval_flag + "=", 0) == 0) a.eval_positions = arg.substr(eval_flag.size() + 1);
    else if (arg != "NYPC") a.ignored.push_back(arg);  // NYPC: the judge's own argument, expected
  }
  return a;
}

void print_usage(std::ostream& out, const char* program) {
  out << "usage: " << program << " [ARG ...]           plays one game over the contest protocol on stdin/stdout\n"
      << "                                  (the judge's NYPC, and other arguments that are not options below, are ignored)\n"
      << "       " << program << " --require-weights    exits 2 before OK when the weights do not load or are not\n"
      << "                                  the ones this source was exported with\n"
      << "                                  (also when $MUSHROOM_REQUIRE_WEIGHTS is set and not 0)\n"
      << "       " << program << " --eval-positions FILE  prints the weights' outputs for each position\n"
      << "data.bin is read from the working directory, else from beside the executable." << std::endl;
}

}  // namespace mushroom::exported

int main(int argc, char** argv) {
  using namespace mushroom;
  using namespace mushroom::exported;
  const Arguments args = parse_arguments(argc, argv);
  if (args.help) {
    print_usage(std::cout, argv[0]);
    return 0;
  }
  if (!args.error.empty()) {
    std::cerr << "bot: error: " << args.error << std::endl;
    print_usage(std::cerr, argv[0]);
    return 2;
  }
  for (const std::string& arg : args.ignored)
    std::cerr << "bot: argument '" << arg << "' is not an option of this bot; ignored" << std::endl;

  const LoadedWeights weights = load_weights(argv[0]);
  if (weights.ok() && !weights.mismatch.empty()) {
    if (args.require_weights) {
      std::cerr << "bot: error: " << weights.mismatch
                << " (weights required: --require-weights or $MUSHROOM_REQUIRE_WEIGHTS)" << std::endl;
      return 2;
    }
    std::cerr << "bot: warning: " << weights.mismatch << "; playing with them"
              << (kProbCutFit[0] ? ", without the Multi-ProbCut fit made for the exported ones" : "") << std::endl;
  } else if (weights.ok()) {
    std::cerr << "bot: weights: " << weights.source << std::endl;
  } else if (args.require_weights || args.eval_positions) {
    std::cerr << "bot: error: " << weights.error
              << (args.eval_positions ? "" : " (weights required: --require-weights or $MUSHROOM_REQUIRE_WEIGHTS)")
              << std::endl;
    return 2;
  } else {
    // Playing on beats forfeiting: without them the search still beats
    // greedy. Said loudly, on the error stream.
    std::cerr << "bot: error: the weights did not load (" << weights.error << "); playing with "
              << (kLearnedEvalBot ? "the hand evaluation" : "the material evaluator, without the network") << std::endl;
  }
  if (args.eval_positions) {
    try {
      return eval_positions(args.eval_positions->c_str(), weights);
    } catch (const std::exception& e) {
      std::cerr << "bot: error: " << e.what() << std::endl;
      return 2;
    }
  }
  std::ios::sync_with_stdio(false);
  BotSession session([&] { return make_bot_agent(weights); }, std::cout, std::cerr);
  return session.run(std::cin);
}
