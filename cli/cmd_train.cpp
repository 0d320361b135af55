// `mushroom train`: trains on the newest shards (LibTorch builds).
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include "cli/command.h"
#include "nn/model_file.h"
#include "nnue/network.h"
#include "run/eval_pipeline.h"
#include "run/heldout_fit.h"
#include "run/run_config.h"
#include "run/run_loop.h"
#include "selfplay/selfplay_runner.h"
#include "train/nnue/eval_net.h"
#include "train/nnue/eval_training.h"
#include "train/trainer.h"
#include "util/log_level.h"
#include "util/progress.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::cli {

namespace {

// `mushroom train` for run.model = "eval".
int train_eval_model(const run::RunConfig& config, const cxxopts::ParseResult& args,
                     const std::filesystem::path& out) {
  const std::string model_path = (out / "eval.bin").string();
  // The held-out positions are read before the training, so that a bad
  // folder is named before the minutes it would cost.
  std::vector<train::EvalRecord> heldout;
  if (args.count("heldout")) {
    const std::string dir = args["heldout"].as<std::string>();
    if (!std::filesystem::is_directory(dir)) throw std::invalid_argument("--heldout " + dir + " is not a folder");
    heldout = run::read_heldout_positions(dir, std::max(1, config.train.threads),
                                          [](const std::string& w) { print_line("train: held out: " + w); });
    if (heldout.empty())
      throw std::invalid_argument("--heldout " + dir + " holds no learned-evaluation positions (no readable shards)");
  }
  nnue::Network start;
  if (args.count("init")) start = nnue::read_network(args["init"].as<std::string>());
  else if (std::filesystem::exists(model_path)) start = nnue::read_network(model_path);
  else start = train::initial_eval_model(config.evalnet, config.seed());
  // The held-out curve: the fit before the first step, every twentieth of
  // the steps and at the end, so that a shape with more weights than its
  // positions can feed shows where its held-out loss stops falling.
  std::string curve = "steps,learned_search_loss,learned_log_loss,learned_search_cells\n";
  const auto measure_curve = [&](int steps, const nnue::Network& net) {
    const view::FitRecord fit = run::heldout_fit(heldout, net, config.evalnet.scale);
    char row[160];
    std::snprintf(row, sizeof row, "%d,%.9g,%.9g,%.9g\n", steps, fit.learned_search_loss, fit.learned_log_loss,
                  fit.learned_search_cells);
    curve += row;
  };
  const train::EvalTraining trained =
      train::train_eval(config.evalnet, config.train,
                        train::find_shards_from_generation(required(args, "data"),
                                                           config.train.window_first_generation),
                        start, 0, 0,
                        (out / "optimizer.pt").string(), [](const std::string& line) { print_line(line); },
                        args.count("steps") ? args["steps"].as<int>() : 0,
                        heldout.empty() ? nullptr : std::function<void(int, const nnue::Network&)>(measure_curve));
  const std::string metrics_path = (out / "metrics.jsonl").string();
  const std::string previous = std::filesystem::exists(metrics_path) ? read_file(metrics_path) : "";
  write_file_atomic(metrics_path, previous + trained.metrics);
  write_file_atomic(model_path, nnue::serialize_network(trained.model));
  std::printf("train: %d steps in %.0f s (%.1f steps/s); wrote %s\n", trained.stats.steps, trained.stats.seconds,
              trained.stats.steps / std::max(1e-9, trained.stats.seconds), model_path.c_str());
  if (!heldout.empty()) {
    // Measured again from the written model, apart from the curve, whose
    // last row must agree with it.
    const view::FitRecord fit = run::heldout_fit(heldout, trained.model, config.evalnet.scale);
    const std::string fit_json = view::to_json(fit);
    const std::string fit_path = (out / "heldout.json").string(), curve_path = (out / "heldout-curve.csv").string();
    write_files_atomic({{fit_path, fit_json}, {curve_path, curve}});
    std::printf("train: %s; wrote %s\n", run::describe_fit(fit).c_str(), fit_path.c_str());
    std::printf("train: the held-out curve (this call's steps, the fit every twentieth of them): wrote %s\n",
                curve_path.c_str());
  }
  return 0;
}

}  // namespace

int cmd_train(int argc, char** argv) {
  cxxopts::Options opts("mushroom train",
                        "Trains on the newest train.window_samples samples of the shards under --data (a shard that "
                        "fails its check is named and skipped) and writes --dir/model.h5, --dir/optimizer.pt and "
                        "--dir/metrics.jsonl. Starts from --init, or from --dir/model.h5 when it exists (so a second "
                        "call continues), or from random weights of the [net] size. With run.model = \"eval\" it "
                        "trains the learned alpha-beta evaluation instead ([evalnet]; mushroom-eval shards, e.g. a "
                        "run's data/) and writes --dir/eval.bin, starting from --init, --dir/eval.bin or fresh "
                        "weights; evalnet.epochs sets the steps when --steps is not given, and --heldout measures "
                        "the result on positions it did not train on (--dir/heldout.json; --dir/heldout-curve.csv, the fit "
                        "every twentieth of the steps).");
  opts.add_options()("config", std::string("run config (TOML)") + kConfigLookupHelp, cxxopts::value<std::string>())(
      "data", "directory of shards (searched recursively)", cxxopts::value<std::string>())(
      "dir", "folder to write the model, optimizer and metrics into", cxxopts::value<std::string>())(
      "out", "old spelling of --dir", cxxopts::value<std::string>())(
      "init", "model to start from", cxxopts::value<std::string>())(
      "steps", "optimizer steps (default: train.steps)", cxxopts::value<int>())(
      "heldout",
      "learned evaluation: a folder of shards it does not train on; after training, the fit to them (the "
      "search-score loss, the results' log loss, cells off; the hand evaluation's beside) is printed and written "
      "to --dir/heldout.json, and the fit every twentieth of the steps to --dir/heldout-curve.csv",
      cxxopts::value<std::string>())(
      "set", "section.key=value: override one config key (repeatable), as `mushroom run --set`",
      cxxopts::value<std::vector<std::string>>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  std::vector<std::string> overrides;
  if (args.count("set")) overrides = args["set"].as<std::vector<std::string>>();
  const run::RunConfig config = run::load_run_config(config_file(args), overrides);
  const std::filesystem::path out = required(args, old_spelling_given(args, "train", "out", "dir") ? "out" : "dir");
  std::filesystem::create_directories(out);
  if (args.count("steps") && args["steps"].as<int>() < 1) throw std::invalid_argument("--steps must be positive");
  // The stage the trainers report their steps to (util/progress.h).
  ProgressStage stage(progress(), "train", "steps");
  if (args.count("heldout") && !config.learns_eval())
    throw std::invalid_argument("--heldout measures a learned evaluation (run.model = \"eval\"); this config trains "
                                "the conv net");
  if (config.learns_eval()) {
    train_eval_model(config, args, out);
    stage.finish();
    return 0;
  }
  const std::string model_path = (out / "model.h5").string();
  nn::Model start;
  if (args.count("init")) start = nn::load_model(args["init"].as<std::string>());
  else if (std::filesystem::exists(model_path)) start = nn::load_model(model_path);
  else start = nn::random_model(config.net, config.seed());
  const auto window = train::load_window(
      train::find_shards_from_generation(required(args, "data"), config.train.window_first_generation),
      config.train.window_samples, [](const std::string& w) { print_line("train: " + w); }, config.game());
  const int steps = args.count("steps") ? args["steps"].as<int>() : config.train.steps;
  print_line("train: " + std::to_string(window.size()) + " samples from " + std::to_string(window.used.size()) +
             " shards, " + std::to_string(steps) + " steps, net " + nn::describe(start.config));
  train::Trainer trainer(config.train, start, (out / "optimizer.pt").string());
  std::string metrics;
  const train::TrainStats stats =
      trainer.train(window, steps, 0, &metrics, std::max(1, steps / 20), [&](const train::TrainStats& s) {
        if (!verbose()) return;  // the progress line shows the steps
        char line[200];
        std::snprintf(line, sizeof line, "train: step %d/%d, loss %.4f, %.1f steps/s", s.steps, steps, s.step_loss,
                      s.steps / std::max(1e-9, s.seconds));
        print_line(line);
      });
  const std::string metrics_path = (out / "metrics.jsonl").string();
  std::string previous = std::filesystem::exists(metrics_path) ? read_file(metrics_path) : "";
  write_file_atomic(metrics_path, previous + metrics);
  stage.finish();
  trainer.save_optimizer();
  nn::save_model(trainer.model({{"model_id", "train-" + std::to_string(stats.samples_seen)}, {"config_hash", config.hash}}),
                 model_path);
  std::printf("train: loss %.4f (policy %.4f, value %.4f, score %.4f, ownership %.4f); %.0f samples/s; wrote %s\n",
              stats.loss, stats.policy, stats.value, stats.score, stats.ownership,
              stats.steps * double(config.train.batch_size) / std::max(1e-9, stats.seconds), model_path.c_str());
  return 0;
}

}  // namespace mushroom::cli
