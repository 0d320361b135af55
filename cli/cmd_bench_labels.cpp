// `mushroom bench labels`: the learned evaluation's data, made as a run's
// self-play makes it ([selfplay] and [evalplay] of a run config), timed:
// labelled positions a second, and where in the game they fall.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <unistd.h>

#include "cli/bench_report.h"
#include "cli/command.h"
#include "nnue/network.h"
#include "run/run_config.h"
#include "selfplay/eval_selfplay.h"
#include "train/nnue/eval_window.h"
#include "train/training_data.h"
#include "util/text.h"

namespace mushroom::cli {

namespace fs = std::filesystem;

int cmd_bench_labels(int argc, char** argv) {
  cxxopts::Options opts("mushroom bench labels",
                        "Plays --games of the learned evaluation's self-play with a run config's [selfplay] and "
                        "[evalplay] settings (workers, label_depth, label_nodes, exact_mushrooms, ...) and reports "
                        "labelled positions a second, the share the endgame solver proved, and how the positions "
                        "spread over the game (mushrooms left). The shards go to a temporary folder unless --dir "
                        "is given. The last line is exactly positions_per_second=<float> exact_fraction=<float>.");
  opts.add_options()("config", std::string("run config (TOML) whose [selfplay] and [evalplay] are used") + kConfigLookupHelp,
                     cxxopts::value<std::string>())(
      "set", "section.key=value: override one config key (repeatable), as `mushroom run --set`",
      cxxopts::value<std::vector<std::string>>())(
      "eval", "learned-evaluation file that plays and labels (default: the hand evaluation)",
      cxxopts::value<std::string>()->default_value(""))(
      "games", "games to play", cxxopts::value<int>()->default_value("100"))(
      "dir", "keep the shards in this folder (default: a temporary one, removed)",
      cxxopts::value<std::string>()->default_value(""))(
      "out", "old spelling of --dir", cxxopts::value<std::string>())("h,help", "show this help");
  add_json_option(opts, "the figures");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  BenchReport report(args, "labels");
  std::vector<std::string> overrides;
  if (args.count("set")) overrides = args["set"].as<std::vector<std::string>>();
  const run::RunConfig config = run::load_run_config(config_file(args), overrides);
  const int games = args["games"].as<int>();
  if (games < 1) throw std::invalid_argument("--games must be at least 1");
  const std::string kept = value_or_old_spelling<std::string>(args, "bench labels", "out", "dir");
  const bool keep = !kept.empty();
  const fs::path out = keep ? fs::path(kept)
                            : fs::temp_directory_path() / ("mushroom-bench-labels-" + std::to_string(getpid()));
  if (!keep) fs::remove_all(out);
  if (keep && fs::exists(out) && !fs::is_empty(out))
    throw std::invalid_argument("--dir " + out.string() + " is not empty");

  selfplay::EvalSelfplayJob job;
  job.job.config = config.selfplay;
  job.job.out_dir = out.string();
  job.job.games = games;
  job.job.model_id = "bench";
  job.job.config_hash = config.hash;
  job.eval = config.evalplay;
  if (!args["eval"].as<std::string>().empty())
    job.evaluation = std::make_shared<nnue::Network>(nnue::read_network(args["eval"].as<std::string>()));
  std::printf("games=%d threads=%d label_depth=%d label_nodes=%lld exact_mushrooms=%d exact_nodes=%lld eval=%s\n",
              games, config.selfplay.workers, config.evalplay.label_depth, (long long)config.evalplay.label_nodes,
              config.evalplay.exact_mushrooms, (long long)config.evalplay.exact_nodes,
              job.evaluation ? args["eval"].as<std::string>().c_str() : "hand");
  const auto start = std::chrono::steady_clock::now();
  const selfplay::SelfplayProgress p = selfplay::run_eval_selfplay(job);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const train::EvalWindow window = train::load_eval_window(train::find_shards(out.string()), int64_t(1) << 40,
                                                           [](const std::string& w) { print_line(w); });
  int64_t exact = 0;
  std::map<int, int64_t> bands;  // mushrooms left / 20 -> positions
  for (const train::EvalRecord& r : window.records) {
    exact += (r.flags & train::EvalRecord::kExact) != 0;
    ++bands[r.mushrooms_left / 20];
  }
  const double n = double(std::max<size_t>(1, window.size()));
  std::printf("%d games, %zu positions (%.1f a game) in %.1f s: %.0f games a minute; %.0f search nodes a position\n",
              p.games_done, window.size(), double(window.size()) / std::max(1, p.games_done), seconds,
              60.0 * p.games_done / seconds, double(p.nn_positions) / n);
  std::printf("positions by mushrooms left:");
  for (const auto& [band, count] : bands)
    std::printf(" %d-%d: %.1f%%", band * 20, band * 20 + 19, 100.0 * double(count) / n);
  std::printf("\n");
  if (!keep) fs::remove_all(out);
  std::printf("positions_per_second=%.1f exact_fraction=%.4f\n", double(window.size()) / seconds, double(exact) / n);
  report.setting("games", games);
  report.setting("threads", config.selfplay.workers);
  report.setting("label_depth", config.evalplay.label_depth);
  report.setting("eval", job.evaluation ? JsonReport(args["eval"].as<std::string>()) : JsonReport("hand"));
  for (const auto& [band, count] : bands)
    report.row("mushrooms_left", {{"from", band * 20}, {"to", band * 20 + 19}, {"share", double(count) / n}});
  report.figure("positions", window.size());
  report.figure("seconds", seconds);
  report.figure("positions_per_second", double(window.size()) / seconds);
  report.figure("exact_fraction", double(exact) / n);
  report.write();
  return 0;
}

}  // namespace mushroom::cli
