// The exported bot's search speed as the judge compiles it. This file
// #includes a submission's main.cpp (its main renamed) and searches
// positions of a position set to a fixed depth with that file's own engine
// and its data.bin, so two submissions (say the committed one and a new
// export) are timed on the same tree. scripts/submission-speed.sh builds it
// with the judge's command line and runs it.
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
    const nnue::Network model = nnue::read_network(argv[1]);
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[2]);
    std::stringstream text;
    text << in.rdbuf();
    const int depth = std::stoi(argv[3]), count = std::stoi(argv[4]);
    using Clock = std::chrono::steady_clock;
    uint64_t nodes = 0;
    double seconds = 0;
    int searched = 0;
    for (const Position& p : parse_position_list(text.str(), argv[2])) {
      MoveList list;
      if (generate_moves(p, list) < 15) continue;  // as bench eval: positions with room for a tree
      if (searched == count) break;
      ++searched;
      nnue::Evaluator evaluator(model);
      AlphaBeta search(AlphaBetaConfig{}, &evaluator);
      const auto t0 = Clock::now();
      nodes += search.search(p, t0 + std::chrono::hours(24), depth).nodes;
      seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    std::printf("positions=%d depth=%d nodes=%llu seconds=%.3f nodes_per_second=%.0f\n", searched,
                depth, (unsigned long long)nodes, seconds, double(nodes) / seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "submission-speed: %s\n", e.what());
    return 1;
  }
  return 0;
}
