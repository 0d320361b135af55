// `mushroom run`: the whole resumable loop (LibTorch builds).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "nn/model_file.h"
#include "selfplay/selfplay_runner.h"
#include "train/run_config.h"
#include "train/run_loop.h"
#include "train/trainer.h"
#include "util/text.h"

namespace mushroom::cli {

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
