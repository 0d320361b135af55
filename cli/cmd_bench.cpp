#include <chrono>
#include <cstdio>
#include <iostream>

#include "alphabeta/alphabeta.h"
#include "cli/bench_report.h"
#include "cli/command.h"
#include "mushroom/movegen.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/mushroom_game.h"
#include "mushroom/playout_positions.h"
#include "mushroom/position_io.h"
#include "mushroom/reference_movegen.h"
#include "search/mcts.h"
#include "util/text.h"

namespace mushroom::cli {
namespace {

struct Timing {
  double ns_per_position;
  long moves;  // checksum: total moves found in one pass
};

// Runs one full pass over the set repeatedly until min_seconds have passed.
template <typename Generate>
Timing time_generator(const std::vector<Position>& positions, double min_seconds, Generate&& generate) {
  using clock = std::chrono::steady_clock;
  long passes = 0, moves = 0;
  const auto start = clock::now();
  double elapsed = 0;
  do {
    long pass_moves = 0;
    for (const Position& p : positions) pass_moves += generate(p);
    moves = pass_moves;
    ++passes;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  } while (elapsed < min_seconds);
  return {elapsed * 1e9 / double(passes * long(positions.size())), moves};
}

// Simulations per second of the no-net MCTS with each evaluator, and nodes
// per second of alpha-beta, from positions of the set with at least
// min_moves rectangles (late positions are solved almost for free and would
// flatter the figures), each searched for `seconds_each`.
int bench_search(const std::vector<Position>& all, double seconds_each, int max_positions, int min_moves,
                 BenchReport& report) {
  using clock = std::chrono::steady_clock;
  std::vector<Position> positions;
  for (const Position& p : all) {
    MoveList list;
    if (generate_moves(p, list) >= min_moves) positions.push_back(p);
    if (int(positions.size()) == max_positions) break;
  }
  std::printf("positions=%zu seconds_each=%.2f\n", positions.size(), seconds_each);
  report.setting("positions", positions.size());
  report.setting("seconds_each", seconds_each);
  RandomEvaluator random(1);
  MaterialEvaluator material;
  RolloutEvaluator rollout;
  const std::pair<const char*, Evaluator<MushroomGame>*> evaluators[] = {
      {"random", &random}, {"material", &material}, {"rollout", &rollout}};
  for (const auto& [name, evaluator] : evaluators) {
    long sims = 0;
    double seconds = 0;
    for (const Position& p : positions) {
      Mcts<MushroomGame> mcts;
      mcts.reset(p);
      const auto t0 = clock::now();
      const auto stop_at = t0 + std::chrono::duration<double>(seconds_each);
      sims += mcts.run(*evaluator, 1 << 30, [&] { return clock::now() >= stop_at; });
      seconds += std::chrono::duration<double>(clock::now() - t0).count();
    }
    std::printf("mcts evaluator=%-8s simulations_per_second=%.0f\n", name, sims / seconds);
    report.row("mcts", {{"evaluator", name}, {"simulations_per_second", sims / seconds}});
  }
  uint64_t nodes = 0;
  double seconds = 0;
  double depth = 0;
  for (const Position& p : positions) {
    AlphaBeta search;
    const auto t0 = clock::now();
    const auto result = search.search(p, t0 + std::chrono::duration_cast<clock::duration>(
                                                 std::chrono::duration<double>(seconds_each)));
    seconds += std::chrono::duration<double>(clock::now() - t0).count();
    nodes += result.nodes;
    depth += result.depth;
  }
  std::printf("alphabeta nodes_per_second=%.0f mean_completed_depth=%.1f\n", nodes / seconds,
              depth / double(positions.size()));
  report.figure("alphabeta_nodes_per_second", nodes / seconds);
  report.figure("mean_completed_depth", depth / double(positions.size()));
  report.write();
  return 0;
}

}  // namespace

int cmd_bench(int argc, char** argv) {
  // The benchmarks with their own options, each a command of its own.
  using Bench = int (*)(int, char**);
#ifdef MUSHROOM_WITH_TORCH
  const Bench labels = cmd_bench_labels, nn = cmd_bench_nn;
#else
  const Bench labels = nullptr, nn = nullptr;  // LibTorch builds only
#endif
  for (const auto& [name, bench] : {std::pair{"eval", Bench(cmd_bench_eval)}, {"endgame", Bench(cmd_bench_endgame)},
                                    {"labels", labels}, {"nn", nn}}) {
    if (argc < 2 || std::string(argv[1]) != name) continue;
    if (!bench)
      throw std::invalid_argument(std::string("'bench ") + name + "' needs a build with LibTorch (-DMUSHROOM_WITH_TORCH=ON)");
    std::string program = std::string("mushroom bench ") + name;
    argv[1] = program.data();
    return bench(argc - 1, argv + 1);
  }
  cxxopts::Options opts("mushroom bench",
                        "Benchmarks. 'mushroom bench movegen --positions FILE' times full legal-move enumeration "
                        "over every position in FILE (blocks of 10 lines of 17 digits separated by blank lines) "
                        "with the fast generator, the plain per-row-pair two-pointer generator and the naive "
                        "generator, in one run. The last line is ns_per_position=<float> for the fast one. "
                        "'mushroom bench search --positions FILE [--seconds S]' measures MCTS simulations per "
                        "second with each no-net evaluator and alpha-beta nodes per second, S seconds per "
                        "position. 'mushroom bench eval --help', 'mushroom bench endgame --help', 'mushroom bench labels --help' "
                        "and 'mushroom bench nn --help' describe the evaluation, endgame-solver, evaluation-data and "
                        "network benchmarks.");
  opts.add_options()("what", "what to benchmark: movegen | search | eval | endgame | labels | nn", cxxopts::value<std::string>())(
      "positions", "position set file", cxxopts::value<std::string>())(
      "seconds", "minimum seconds per timed generator", cxxopts::value<double>()->default_value("1.0"))(
      "skip-naive", "do not time the (slow) naive generator")(
      "max-positions", "search: positions to use", cxxopts::value<int>()->default_value("40"))(
      "min-moves", "search: skip positions with fewer rectangles", cxxopts::value<int>()->default_value("15"))(
      "h,help", "show this help");
  add_json_option(opts, "the figures");
  opts.parse_positional({"what"});
  opts.positional_help("movegen|search|eval|endgame|labels|nn");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string what = args.count("what") ? args["what"].as<std::string>() : "";
  if (what != "movegen" && what != "search")
    throw std::invalid_argument("unknown benchmark '" + what + "' (known: movegen, search, eval, endgame, labels, nn)");
  BenchReport report(args, what);
  const std::string path = required(args, "positions");
  const auto positions = parse_position_list(read_file(path), path);
  if (positions.empty()) throw std::invalid_argument("no positions in '" + path + "'");
  const double seconds = args["seconds"].as<double>();
  report.setting("file", path);
  if (what == "search")
    return bench_search(positions, seconds, args["max-positions"].as<int>(), args["min-moves"].as<int>(), report);

  std::printf("positions=%zu file=%s\n", positions.size(), path.c_str());
  report.setting("positions", positions.size());
  auto generator = [&](const std::string& name, const Timing& t) {
    report.row("generators", {{"generator", name}, {"ns_per_position", t.ns_per_position}, {"moves", t.moves}});
  };
  if (!args.count("skip-naive")) {
    const Timing naive = time_generator(positions, 0.0, [](const Position& p) {
      return long(generate_moves_naive(p).size());
    });
    std::printf("naive        ns_per_position=%.1f moves=%ld\n", naive.ns_per_position, naive.moves);
    generator("naive", naive);
  }
  MoveList list;
  const Timing two = time_generator(positions, seconds, [&](const Position& p) {
    return long(generate_moves_two_pointer(p, list));
  });
  std::printf("two-pointer  ns_per_position=%.1f moves=%ld\n", two.ns_per_position, two.moves);
  generator("two-pointer", two);
  for (MovegenKernel kernel : {MovegenKernel::kScalar, MovegenKernel::kAvx2, MovegenKernel::kAvx512}) {
    if (!kernel_supported(kernel)) continue;
    const Timing t = time_generator(positions, seconds, [&](const Position& p) {
      return long(generate_moves_with(kernel, p, list));
    });
    std::printf("fast-%-7s ns_per_position=%.1f moves=%ld\n", kernel_name(kernel), t.ns_per_position, t.moves);
    generator(std::string("fast-") + kernel_name(kernel), t);
  }
  const Timing fast = time_generator(positions, seconds, [&](const Position& p) {
    return long(generate_moves(p, list));
  });
  std::printf("fast (%s, used by the engine) ns_per_position=%.1f moves=%ld\n", kernel_name(best_kernel()),
              fast.ns_per_position, fast.moves);
  if (fast.moves != two.moves) {
    std::fprintf(stderr, "error: generators disagree (%ld vs %ld moves)\n", fast.moves, two.moves);
    return 1;
  }
  std::printf("ns_per_position=%.2f\n", fast.ns_per_position);
  report.figure("ns_per_position", fast.ns_per_position);
  report.figure("kernel", kernel_name(best_kernel()));
  report.write();
  return 0;
}

}  // namespace mushroom::cli
