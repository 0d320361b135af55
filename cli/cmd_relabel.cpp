// `mushroom relabel`: the learned evaluation's data labelled again,
// position for position, by other label settings (selfplay/relabel.h).
#include <cstdio>
#include <filesystem>

#include "alphabeta/probcut.h"
#include "cli/command.h"
#include "nnue/network.h"
#include "run/run_config.h"
#include "selfplay/relabel.h"
#include "selfplay/shard.h"
#include "util/log_level.h"
#include "util/progress.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_relabel(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom relabel",
      "Labels the learned evaluation's data again, position for position, with a run config's [evalplay] label "
      "settings (label_depth, label_nodes, label_search, label_parity_mean, exact_mushrooms, exact_nodes; "
      "label_probcut is --probcut FIT here): each "
      "shard under --data becomes one of the same name under --dir, its positions, final margins and game ids "
      "kept. --mode exact only replaces the labels of the positions the endgame solver proves. --mode focus only "
      "searches again the positions in evalplay.focus_label_depth's band (focus_min..focus_max left), at that depth; "
      "the others keep their labels. --mode horizon "
      "searches nothing: each label is mixed with the next positions' of its game, (1 - lambda) * label(t) - "
      "lambda * target(t + 1), where the move from t followed the search (mushroom-eval3 data, which marks the "
      "random moves). Prints, and writes "
      "to DIR/report.json, how far the new labels are from the old by band of mushrooms left (mean absolute "
      "change, sign flips, proven share). Run again after a stop: finished shards are kept. The settings are recorded "
      "in DIR/settings.json before the first shard; a run into DIR with other settings is refused, naming them.");
  opts.add_options()("data", "folder of learned-evaluation shards (searched recursively)", cxxopts::value<std::string>())(
      "dir", "output folder for the relabelled shards and report.json", cxxopts::value<std::string>())(
      "config", std::string("run config (TOML) whose [evalplay] labels and [selfplay] threads are used") + kConfigLookupHelp,
      cxxopts::value<std::string>())(
      "set", "section.key=value: override one config key (repeatable), as `mushroom run --set`",
      cxxopts::value<std::vector<std::string>>())(
      "eval", "learned-evaluation file the label search uses (default: the hand evaluation)",
      cxxopts::value<std::string>())(
      "probcut", "the playing search (evalplay.label_search = \"playing\") also prunes with this Multi-ProbCut fit of "
                 "--eval (`mushroom probcut-fit`, or a run's models/NAME.probcut), as the contest bot searches; a fit "
                 "made with another evaluation is refused. Sets evalplay.label_probcut, which without --probcut is "
                 "refused",
      cxxopts::value<std::string>())(
      "mode", "search: every kept position gets the new label; exact: only those the solver proves; focus: only those in the "
              "focus band, at evalplay.focus_label_depth; horizon: the short-horizon target (no search)",
      cxxopts::value<std::string>()->default_value("search"))(
      "lambda", "--mode horizon: the next positions' share of each label, in (0, 1]",
      cxxopts::value<double>()->default_value("0.5"))(
      "min-left", "keep only positions with at least this many mushrooms left", cxxopts::value<int>()->default_value("0"))(
      "max-left", "keep only positions with at most this many mushrooms left", cxxopts::value<int>()->default_value("170"))(
      "limit", "keep at most this many positions, spread evenly over the data (0: all)",
      cxxopts::value<int64_t>()->default_value("0"))(
      "threads", "worker threads (default: selfplay.threads)", cxxopts::value<int>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  std::vector<std::string> overrides;
  if (args.count("set")) overrides = args["set"].as<std::vector<std::string>>();
  const run::RunConfig config = run::load_run_config(config_file(args), overrides);

  selfplay::RelabelJob job;
  job.data_root = required(args, "data");
  if (!std::filesystem::is_directory(job.data_root))
    throw std::invalid_argument("--data " + job.data_root + " is not a folder");
  job.shards = selfplay::find_shards(job.data_root);
  job.out_dir = required(args, "dir");
  job.label = config.evalplay.label_config();
  job.mode = args["mode"].as<std::string>();
  job.horizon_lambda = args["lambda"].as<double>();
  if (args.count("lambda") && job.mode != "horizon")
    throw std::invalid_argument("--lambda is for --mode horizon only");
  job.min_left = args["min-left"].as<int>();
  job.max_left = args["max-left"].as<int>();
  job.limit = args["limit"].as<int64_t>();
  job.threads = args.count("threads") ? args["threads"].as<int>() : config.selfplay.workers;
  if (args.count("eval")) job.evaluation_id = args["eval"].as<std::string>();
  if (!job.evaluation_id.empty())
    job.evaluation = std::make_shared<nnue::Network>(nnue::read_network(job.evaluation_id));
  if (args.count("probcut")) {
    job.probcut_id = args["probcut"].as<std::string>();
    job.probcut = std::make_shared<ProbCutFit>(read_probcut_fit(job.probcut_id));  // names a malformed line
    job.label.probcut = true;
  } else if (job.label.probcut) {
    throw std::invalid_argument("evalplay.label_probcut = true: name the fit of the label's evaluation with --probcut "
                                "FIT (relabel does not guess it)");
  }
  // The progress line counts the shards (util/progress.h); each shard
  // written is logged, and with --verbose the samples every 10 s.
  job.progress = [](const std::string& line) {
    if (verbose() || line.rfind("relabel: wrote ", 0) == 0) print_line(line);
  };
  print_line("relabel: " + std::to_string(job.shards.size()) + " shards under " + job.data_root + ", labels: " +
             selfplay::describe(job.label) + ", mode " + job.mode +
             (job.mode == "horizon" ? " (lambda " + format_fixed(job.horizon_lambda, 3) + ")" : std::string()) +
             ", evaluation " + (job.evaluation_id.empty() ? "hand" : job.evaluation_id) +
             (job.probcut ? ", fit " + job.probcut_id : std::string()) + ", " + std::to_string(job.threads) +
             " threads");
  ProgressStage stage(progress(), "relabel", "shards");
  const selfplay::RelabelReport report = selfplay::relabel(job);
  stage.finish();
  std::printf("%s", selfplay::format_report(report).c_str());
  if (report.searched > 0)
    std::printf("search nodes: %.0f a searched position (%lld searched)\n",
                double(report.search_nodes) / double(report.searched), (long long)report.searched);
  return 0;
}

}  // namespace mushroom::cli
