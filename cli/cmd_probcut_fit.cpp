#include <cstdio>
#include <filesystem>
#include <iostream>

#include "agents/probcut_fitting.h"
#include "cli/command.h"
#include "util/log_level.h"
#include "util/output_path.h"
#include "util/progress.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_probcut_fit(int argc, char** argv) {
  ProbCutFitJob job;
  std::string default_pairs;
  for (const auto& [depth, shallow] : job.pairs)
    default_pairs += (default_pairs.empty() ? "" : ",") + std::to_string(depth) + ":" + std::to_string(shallow);
  cxxopts::Options opts(
      "mushroom probcut-fit",
      "Fits Multi-ProbCut (engine/alphabeta/probcut.h) for one evaluation: the playing search plays --games games "
      "against itself at --play-depth from seeded random boards (the first 0..--random-plies moves random); "
      "--sample-rate of their positions are searched again by iterative deepening to --max-depth from an empty "
      "table, and for each band of 20 mushrooms left and pair DEPTH:SHALLOW the deep values are regressed on the "
      "shallow ones. Writes the fit to --out (the alphabeta agent's `probcut` option reads it), prints it as a "
      "table, and with --samples writes every position's values as CSV.");
  opts.add_options()("eval", "the learned-evaluation file (empty: the hand evaluation)",
                     cxxopts::value<std::string>()->default_value(""))(
      "out", "the fit file to write", cxxopts::value<std::string>())(
      "samples", "also write each position's value at every depth here (CSV)", cxxopts::value<std::string>())(
      "games", "self-play games", cxxopts::value<int>()->default_value(std::to_string(job.games)))(
      "seed", "boards and random moves", cxxopts::value<uint64_t>()->default_value(std::to_string(job.seed)))(
      "threads", "games searched side by side", cxxopts::value<int>()->default_value(std::to_string(job.threads)))(
      "play-depth", "the games' moves: the playing search at this depth",
      cxxopts::value<int>()->default_value(std::to_string(job.play_depth)))(
      "random-plies", "each game's first 0..N moves are random",
      cxxopts::value<int>()->default_value(std::to_string(job.random_plies)))(
      "sample-rate", "the share of positions searched", cxxopts::value<double>()->default_value(format_fixed(job.sample_rate, 2)))(
      "max-depth", "each position searched to this depth",
      cxxopts::value<int>()->default_value(std::to_string(job.max_depth)))(
      "nodes", "...unless it passes this many nodes first",
      cxxopts::value<uint64_t>()->default_value(std::to_string(job.node_limit)))(
      "tt-bits", "the measuring search's table holds 2^N entries",
      cxxopts::value<int>()->default_value(std::to_string(job.tt_bits)))(
      "pairs", "DEPTH:SHALLOW pairs to fit, comma-separated", cxxopts::value<std::string>()->default_value(default_pairs))(
      "min-samples", "a band's pair with fewer positions is left out",
      cxxopts::value<int>()->default_value(std::to_string(job.min_samples)))(
      "exact-max-left", "also solve positions with at most this many mushrooms left and fit the exact margin on "
                        "the value at --exact-shallow (the endgame solver's selective mode; 0: none)",
      cxxopts::value<int>()->default_value(std::to_string(job.exact_max_left)))(
      "exact-nodes", "the solver's node limit per position",
      cxxopts::value<uint64_t>()->default_value(std::to_string(job.exact_nodes)))(
      "exact-shallow", "the depth whose value predicts the exact margin",
      cxxopts::value<int>()->default_value(std::to_string(job.exact_shallow)))(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string out = required(args, "out");
  job.eval = args["eval"].as<std::string>();
  job.games = args["games"].as<int>();
  job.seed = args["seed"].as<uint64_t>();
  job.threads = args["threads"].as<int>();
  job.play_depth = args["play-depth"].as<int>();
  job.random_plies = args["random-plies"].as<int>();
  job.sample_rate = args["sample-rate"].as<double>();
  job.max_depth = args["max-depth"].as<int>();
  job.node_limit = args["nodes"].as<uint64_t>();
  job.tt_bits = args["tt-bits"].as<int>();
  job.pairs = parse_probcut_pairs(args["pairs"].as<std::string>());
  job.min_samples = args["min-samples"].as<int>();
  job.exact_max_left = args["exact-max-left"].as<int>();
  job.exact_nodes = args["exact-nodes"].as<uint64_t>();
  job.exact_shallow = args["exact-shallow"].as<int>();
  check_probcut_fit_job(job);
  // Both files' folders are checked before the search, not after it.
  check_output_path(out, "out");
  if (args.count("samples")) check_output_path(args["samples"].as<std::string>(), "samples");

  // The progress line counts the games (util/progress.h); --verbose logs each.
  ProgressStage stage(progress(), "fit", "games");
  const ProbCutFitResult result = run_probcut_fit(job, [](const std::string& line) {
    if (verbose()) print_line(line);
  });
  stage.finish();
  size_t complete = 0;
  size_t solved = 0;
  for (const ProbCutSample& s : result.samples) {
    complete += int(s.values.size()) == job.max_depth;
    solved += s.exact.has_value();
  }
  const std::string header =
      "mushroom probcut-fit --eval " + (job.eval.empty() ? std::string("\"\"") : job.eval) + " --games " +
      std::to_string(job.games) + " --seed " + std::to_string(job.seed) + " --play-depth " +
      std::to_string(job.play_depth) + " --random-plies " + std::to_string(job.random_plies) + " --sample-rate " +
      format_fixed(job.sample_rate, 2) + " --max-depth " + std::to_string(job.max_depth) + " --nodes " +
      std::to_string(job.node_limit) + " --pairs " + args["pairs"].as<std::string>() +
      (job.exact_max_left ? " --exact-max-left " + std::to_string(job.exact_max_left) + " --exact-nodes " +
                                std::to_string(job.exact_nodes) + " --exact-shallow " + std::to_string(job.exact_shallow)
                          : std::string()) +
      "\n" +
      std::to_string(result.samples.size()) + " positions, " + std::to_string(complete) + " searched to depth " +
      std::to_string(job.max_depth) + (job.exact_max_left ? ", " + std::to_string(solved) + " solved" : std::string());
  const std::string text = format_probcut_fit(result.fit, header);
  write_file_atomic(out, text);
  if (args.count("samples")) write_file_atomic(args["samples"].as<std::string>(), probcut_samples_csv(result.samples, job.max_depth));
  std::cout << text;
  std::printf("positions=%zu complete=%zu solved=%zu pairs=%zu nodes=%llu seconds=%.1f\n", result.samples.size(), complete, solved,
              result.fit.entries().size(), static_cast<unsigned long long>(result.search_nodes), result.seconds);
  std::cout << "wrote " << out << "\n";
  return 0;
}

}  // namespace mushroom::cli
