// `mushroom selfplay`, `mushroom train` and `mushroom run`: the training
// pipeline's commands (LibTorch builds).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "nn/model_file.h"
#include "selfplay/blockgame_selfplay.h"
#include "selfplay/selfplay_runner.h"
#include "train/run_config.h"
#include "train/run_loop.h"
#include "train/trainer.h"
#include "util/text.h"

namespace mushroom::cli {

namespace {
void print_line(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}
}  // namespace

int cmd_selfplay(int argc, char** argv) {
  cxxopts::Options opts("mushroom selfplay",
                        "Plays self-play games with the [selfplay] settings of a run config and writes HDF5 shards "
                        "(schema: selfplay/shard.h) into --out. Without --model it uses the bootstrap evaluator "
                        "(selfplay.bootstrap), so data can be made from nothing.");
  opts.add_options()("config", "run config (TOML)", cxxopts::value<std::string>())(
      "model", "model file (default: none, the bootstrap evaluator)", cxxopts::value<std::string>())(
      "out", "output directory for shards", cxxopts::value<std::string>())(
      "games", "games to play (default: selfplay.games)", cxxopts::value<int>())(
      "first-game-id", "id of the first game (board seeds derive from ids)",
      cxxopts::value<int64_t>()->default_value("0"))("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const train::RunConfig config = train::load_run_config(required(args, "config"));
  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.config_hash = config.hash;
  job.out_dir = required(args, "out");
  job.games = args.count("games") ? args["games"].as<int>() : config.selfplay.games;
  if (job.games < 1) throw std::invalid_argument("--games must be positive");
  job.first_game_id = args["first-game-id"].as<int64_t>();
  if (args.count("model")) {
    job.model = std::make_shared<nn::Model>(nn::load_model(args["model"].as<std::string>()));
    job.model_id = args["model"].as<std::string>();
  }
  job.progress = [](const selfplay::SelfplayProgress& p) {
    std::printf("selfplay: %d/%d games, %.1f games/min, mean length %.1f plies, batch fill %.0f%%, %lld samples, "
                "%.0f evals/s\n",
                p.games_done, p.games_total, p.seconds > 0 ? p.games_done * 60.0 / p.seconds : 0, p.mean_game_plies,
                100 * p.batch_fill, (long long)p.samples, p.seconds > 0 ? p.nn_positions / p.seconds : 0);
    std::fflush(stdout);
  };
  if (config.game() == nn::GameKind::kBlockgame) selfplay::run_blockgame_selfplay(job);
  else selfplay::run_selfplay(job);
  return 0;
}

int cmd_train(int argc, char** argv) {
  cxxopts::Options opts("mushroom train",
                        "Trains on the newest train.window_samples samples of the shards under --data (a shard that "
                        "fails its check is named and skipped) and writes --out/model.h5, --out/optimizer.pt and "
                        "--out/metrics.jsonl. Starts from --init, or from --out/model.h5 when it exists (so a second "
                        "call continues), or from random weights of the [net] size.");
  opts.add_options()("config", "run config (TOML)", cxxopts::value<std::string>())(
      "data", "directory of shards (searched recursively)", cxxopts::value<std::string>())(
      "out", "output directory", cxxopts::value<std::string>())(
      "init", "model to start from", cxxopts::value<std::string>())(
      "steps", "optimizer steps (default: train.steps)", cxxopts::value<int>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const train::RunConfig config = train::load_run_config(required(args, "config"));
  const std::filesystem::path out = required(args, "out");
  std::filesystem::create_directories(out);
  const std::string model_path = (out / "model.h5").string();
  nn::Model start;
  if (args.count("init")) start = nn::load_model(args["init"].as<std::string>());
  else if (std::filesystem::exists(model_path)) start = nn::load_model(model_path);
  else start = nn::random_model(config.net, config.seed);
  const auto window = train::load_window(train::find_shards(required(args, "data")), config.train.window_samples,
                                         [](const std::string& w) { print_line("train: " + w); }, config.game());
  const int steps = args.count("steps") ? args["steps"].as<int>() : config.train.steps;
  if (steps < 1) throw std::invalid_argument("--steps must be positive");
  print_line("train: " + std::to_string(window.size()) + " samples from " + std::to_string(window.used.size()) +
             " shards, " + std::to_string(steps) + " steps, net " + nn::describe(start.config));
  train::Trainer trainer(config.train, start, (out / "optimizer.pt").string());
  std::string metrics;
  const train::TrainStats stats =
      trainer.train(window, steps, 0, &metrics, std::max(1, steps / 20), [&](const train::TrainStats& s) {
        char line[200];
        std::snprintf(line, sizeof line, "train: step %d/%d, loss %.4f, %.1f steps/s", s.steps, steps, s.step_loss,
                      s.steps / std::max(1e-9, s.seconds));
        print_line(line);
      });
  const std::string metrics_path = (out / "metrics.jsonl").string();
  std::string previous = std::filesystem::exists(metrics_path) ? read_file(metrics_path) : "";
  write_file_atomic(metrics_path, previous + metrics);
  trainer.save_optimizer();
  nn::save_model(trainer.model({{"model_id", "train-" + std::to_string(stats.samples_seen)}, {"config_hash", config.hash}}),
                 model_path);
  std::printf("train: loss %.4f (policy %.4f, value %.4f, score %.4f, ownership %.4f); %.0f samples/s; wrote %s\n",
              stats.loss, stats.policy, stats.value, stats.score, stats.ownership,
              stats.steps * double(config.train.batch_size) / std::max(1e-9, stats.seconds), model_path.c_str());
  return 0;
}

int cmd_run(int argc, char** argv) {
  cxxopts::Options opts("mushroom run",
                        "Runs the whole loop (self-play, train, gate, evaluate, plot) for the config's generations in "
                        "--dir. Killed at any moment and started again with the same command, it resumes where it "
                        "was. Writes --dir/plots/run.png and per-generation records in --dir/metrics/.");
  opts.add_options()("config", "run config (TOML), e.g. configs/cpu-small.toml", cxxopts::value<std::string>())(
      "dir", "run directory, e.g. runs/NAME", cxxopts::value<std::string>())(
      "generations", "stop after this many generations (default: run.generations)", cxxopts::value<int>())(
      "threads", "threads for gating/evaluation games", cxxopts::value<int>()->default_value("2"))(
      "init", "start from this model (e.g. models/default.h5) instead of from nothing", cxxopts::value<std::string>())(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  train::RunOptions options;
  options.config_path = required(args, "config");
  options.dir = required(args, "dir");
  options.generations = args.count("generations") ? args["generations"].as<int>() : 0;
  if (options.generations < 0) throw std::invalid_argument("--generations must be positive");
  options.threads = std::max(1, args["threads"].as<int>());
  options.log = print_line;
  if (args.count("init")) options.init_model = args["init"].as<std::string>();
  train::run_training_loop(options);
  print_line("plot: " + (std::filesystem::path(options.dir) / "plots" / "run.png").string());
  return 0;
}

}  // namespace mushroom::cli
