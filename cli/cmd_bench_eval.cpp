// `mushroom bench eval`: the hand and the learned evaluations, and
// alpha-beta with each, timed in one run on the same positions.
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "alphabeta/alphabeta.h"
#include "cli/bench_report.h"
#include "cli/command.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/position_io.h"
#include "nnue/evaluator.h"
#include "util/data_roots.h"
#include "util/rng.h"
#include "util/text.h"

namespace mushroom::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


// Random weights inside the runtime's ranges: the timing does not depend on
// the values, but the searched tree does, so figures for a shipped model
// use its file.
nnue::Network random_weights(int hidden, int l1, int l2) {
  nnue::Network m = nnue::Network::hand_equivalent({hidden, l1, l2});
  Rng rng(2026);
  for (auto& t : m.tensors())
    for (size_t i = 0; i < t.size; ++i) t.data[i] = float(0.02 * (2 * rng.uniform_double() - 1));
  m.skip_margin = 1;
  m.skip_gain = 0.5f;
  return m;
}

struct Child {
  Move move;
  Position after;
  LeafMoves scan;  // its best gain and rectangle count, as a leaf has them
};

}  // namespace

int cmd_bench_eval(int argc, char** argv) {
  cxxopts::Options opts("mushroom bench eval",
                        "Times the hand evaluation and the learned one, and alpha-beta with each, in one run on the "
                        "same positions. The learned figure is a push (the incremental accumulator update), an "
                        "evaluation and a pop per child of each position, as the search pays at a leaf; the hand "
                        "figure includes the move generation it needs. The last line is exactly "
                        "learned_ns_per_eval=<float> learned_nodes_ratio=<float> (alpha-beta nodes per second with "
                        "the learned evaluation over those with the hand one).");
  opts.add_options()("positions", "position set file (e.g. bench/movegen_positions.txt)", cxxopts::value<std::string>())(
      "eval", "learned-evaluation weights (default: the shipped models/eval.bin, found as `mushroom bot` finds it, else random weights)",
      cxxopts::value<std::string>())("hidden", "random weights: transformer units",
                                     cxxopts::value<int>()->default_value("64"))(
      "l1", "random weights: first dense layer", cxxopts::value<int>()->default_value("16"))(
      "l2", "random weights: second dense layer", cxxopts::value<int>()->default_value("16"))(
      "seconds", "alpha-beta seconds per position", cxxopts::value<double>()->default_value("0.25"))(
      "depth",
      "alpha-beta: search each position to exactly this depth instead of for --seconds (0: --seconds). Every "
      "build that leaves the tree alone searches the same nodes, so the figure is its speed alone",
      cxxopts::value<int>()->default_value("0"))(
      "max-positions", "positions searched by alpha-beta", cxxopts::value<int>()->default_value("40"))(
      "min-moves", "skip positions with fewer rectangles", cxxopts::value<int>()->default_value("15"))(
      "isa",
      "the learned evaluation's kernels: auto (what the bot runs: avx2 where the CPU has it), avx512, avx2 or "
      "scalar; one this CPU lacks is an error",
      cxxopts::value<std::string>()->default_value("auto"))("h,help", "show this help");
  add_json_option(opts, "the figures");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  BenchReport report(args, "eval");
  const std::string path = required(args, "positions");
  const int fixed_depth = args["depth"].as<int>();
  const std::string isa_text = args["isa"].as<std::string>();
  nnue::kernels::Isa isa = nnue::kernels::default_isa();
  if (isa_text == "avx512") isa = nnue::kernels::Isa::kAvx512;
  else if (isa_text == "avx2") isa = nnue::kernels::Isa::kAvx2;
  else if (isa_text == "scalar") isa = nnue::kernels::Isa::kScalar;
  else if (isa_text != "auto")
    throw std::invalid_argument("--isa must be auto, avx512, avx2 or scalar, not '" + isa_text + "'");
  if (fixed_depth < 0 || fixed_depth > 64) throw std::invalid_argument("--depth must be 0..64, not " + std::to_string(fixed_depth));
  const auto all = parse_position_list(read_file(path), path);
  if (all.empty()) throw std::invalid_argument("no positions in '" + path + "'");
  std::string eval_path = args.count("eval") ? args["eval"].as<std::string>() : "";
  if (eval_path.empty()) eval_path = find_in_data_roots("models/eval.bin").value_or("");  // the shipped one, from any folder
  const nnue::Network model =
      eval_path.empty() ? random_weights(args["hidden"].as<int>(), args["l1"].as<int>(), args["l2"].as<int>())
                        : nnue::read_network(eval_path);
  nnue::Evaluator{model, isa};  // refuses, before any timing, kernels this CPU lacks
  std::printf("positions=%zu file=%s eval=%s (%s)\n", all.size(), path.c_str(),
              eval_path.empty() ? "random weights" : eval_path.c_str(), model.shape.to_string().c_str());
  report.setting("file", path);
  report.setting("positions", all.size());
  report.setting("eval", eval_path.empty() ? JsonReport(nullptr) : JsonReport(eval_path));
  report.setting("shape", model.shape.to_string());
  report.setting("depth", fixed_depth);

  // Evaluation speed over every position of the set and up to 16 children each.
  std::vector<std::vector<Child>> children(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    MoveList list;
    const int n = generate_moves(all[i], list);
    for (int k = 0; k < n && k < 16; ++k) {
      Child c{list[k], all[i], {}};
      c.after.apply(c.move);
      c.scan = scan_leaf_moves(c.after);
      children[i].push_back(c);
    }
  }
  const double min_seconds = 1.0;
  long hand_calls = 0;
  int64_t hand_sum = 0;  // keeps the work from being optimized away
  const auto hand_start = Clock::now();
  do {
    for (const Position& p : all) hand_sum += evaluate(p), ++hand_calls;
  } while (seconds_since(hand_start) < min_seconds);
  const double hand_ns = seconds_since(hand_start) * 1e9 / double(hand_calls);

  nnue::Evaluator learned(model, isa);
  long learned_calls = 0;
  double learned_seconds = 0;
  int64_t learned_sum = 0;
  while (learned_seconds < min_seconds) {
    for (size_t i = 0; i < all.size(); ++i) {
      learned.set_root(all[i]);
      const auto t0 = Clock::now();
      for (int repeat = 0; repeat < 20; ++repeat)
        for (const Child& c : children[i]) {
          learned.push(all[i], c.move);
          learned_sum += learned.evaluate(c.after, c.scan);
          learned.pop();
          ++learned_calls;
        }
      learned_seconds += seconds_since(t0);
    }
  }
  const double learned_ns = learned_seconds * 1e9 / double(learned_calls);
  std::printf("hand evaluation (move generation included)   ns_per_eval=%.1f  (checksum %lld)\n", hand_ns,
              (long long)hand_sum);
  std::printf("learned evaluation (push + evaluate + pop)   ns_per_eval=%.1f  (checksum %lld, %s)\n", learned_ns,
              (long long)learned_sum, nnue::kernels::isa_name(learned.isa()));
  report.figure("hand_ns_per_eval", hand_ns);
  report.figure("isa", nnue::kernels::isa_name(learned.isa()));

  // Alpha-beta with each, the same positions and time.
  std::vector<Position> positions;
  for (const Position& p : all) {
    MoveList list;
    if (generate_moves(p, list) >= args["min-moves"].as<int>()) positions.push_back(p);
    if (int(positions.size()) == args["max-positions"].as<int>()) break;
  }
  const double seconds_each = args["seconds"].as<double>();
  double nps[2] = {0, 0};
  for (int which = 0; which < 2; ++which) {
    uint64_t nodes = 0;
    double seconds = 0, depth = 0;
    for (const Position& p : positions) {
      nnue::Evaluator evaluator(model, isa);
      AlphaBeta search(AlphaBetaConfig{}, which == 1 ? &evaluator : nullptr);
      const auto t0 = Clock::now();
      const auto deadline = fixed_depth ? t0 + std::chrono::hours(24)
                                        : t0 + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(seconds_each));
      const auto result = search.search(p, deadline, fixed_depth ? fixed_depth : 64);
      seconds += seconds_since(t0);
      nodes += result.nodes;
      depth += result.depth;
    }
    nps[which] = double(nodes) / seconds;
    std::printf("alphabeta eval=%-7s nodes_per_second=%.0f mean_completed_depth=%.1f positions=%zu nodes=%llu\n",
                which ? "learned" : "hand", nps[which], depth / double(positions.size()), positions.size(),
                (unsigned long long)nodes);
    report.row("alphabeta", {{"eval", which ? "learned" : "hand"},
                             {"nodes_per_second", nps[which]},
                             {"mean_completed_depth", depth / double(positions.size())},
                             {"positions", positions.size()},
                             {"nodes", nodes}});
  }
  std::printf("learned_ns_per_eval=%.1f learned_nodes_ratio=%.3f\n", learned_ns, nps[1] / nps[0]);
  report.figure("learned_ns_per_eval", learned_ns);
  report.figure("learned_nodes_ratio", nps[1] / nps[0]);
  report.write();
  return 0;
}

}  // namespace mushroom::cli
