// The exported bot's search speed as the judge compiles it. This file
// #includes a submission's main.cpp (its main renamed) and searches
// positions of a position set to a fixed depth with that file's own engine
// and its data.bin, as the bot searches: its alphabeta agent's settings and
// the Multi-ProbCut fit embedded in the source (embedded_probcut_fit, off
// when data.bin holds other weights than the export's), so two submissions
// (say the committed one and a new export) are timed on the trees they
// play. scripts/submission-speed.sh builds it with the judge's command line
// and runs it; export_test.cpp checks its nodes against the engine's.
#ifndef MUSHROOM_SUBMISSION
#error "compile with -DMUSHROOM_SUBMISSION='\"DIR/main.cpp\"' (scripts/submission-speed.sh does)"
#endif
#define main mushroom_submission_main
#include MUSHROOM_SUBMISSION
#undef main

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char** argv) {
  using namespace mushroom;
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s DATA_BIN POSITIONS DEPTH COUNT\n", argv[0]);
    return 2;
  }
  try {
    exported::LoadedWeights weights;
    weights.source = argv[1];
    const std::string bytes = nnue::read_network_bytes(argv[1]);
    weights.evaluation = std::make_shared<const nnue::Network>(nnue::parse_network(bytes, argv[1]));
    if (fnv1a64(bytes.data(), bytes.size()) != exported::kWeightsHash || bytes.size() != exported::kWeightsBytes)
      weights.mismatch = std::string(argv[1]) + " holds other weights than the submission was exported with";
    const nnue::Network& model = *weights.evaluation;
    const std::shared_ptr<const ProbCutFit> fit = exported::embedded_probcut_fit(weights);
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[2]);
    std::stringstream text;
    text << in.rdbuf();
    const int depth = std::stoi(argv[3]), count = std::stoi(argv[4]);
    using Clock = std::chrono::steady_clock;
    uint64_t nodes = 0;
    double seconds = 0;
    int searched = 0;
    const AlphaBetaConfig settings = exported::exported_agent_config().search;  // with its --agent options
    for (const Position& p : parse_position_list(text.str(), argv[2])) {
      MoveList list;
      if (generate_moves(p, list) < 15) continue;  // as bench eval: positions with room for a tree
      if (searched == count) break;
      ++searched;
      nnue::Evaluator evaluator(model);
      AlphaBeta search(settings, &evaluator);
      search.set_probcut(fit.get());
      const auto t0 = Clock::now();
      nodes += search.search(p, t0 + std::chrono::hours(24), depth).nodes;
      seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    std::printf("positions=%d depth=%d nodes=%llu seconds=%.3f nodes_per_second=%.0f probcut=%s\n", searched,
                depth, (unsigned long long)nodes, seconds, double(nodes) / seconds, fit ? "on" : "off");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "submission-speed: %s\n", e.what());
    return 1;
  }
  return 0;
}
