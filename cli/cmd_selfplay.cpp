// `mushroom selfplay`: self-play games into shards (LibTorch builds).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "nn/model_file.h"
#include "train/learning_game.h"
#include "selfplay/selfplay_runner.h"
#include "train/run_config.h"
#include "train/run_loop.h"
#include "train/trainer.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_selfplay(int argc, char** argv) {
  cxxopts::Options opts("mushroom selfplay",
                        "Plays self-play games with the [selfplay] settings of a run config and writes HDF5 shards "
                        "(schema: selfplay/shard.h) into --dir. Without --model it uses the bootstrap evaluator "
                        "(selfplay.bootstrap), so data can be made from nothing.");
  opts.add_options()("config", "run config (TOML)", cxxopts::value<std::string>())(
      "model", "model file (default: none, the bootstrap evaluator)", cxxopts::value<std::string>())(
      "dir", "folder for the shards", cxxopts::value<std::string>())(
      "out", "old spelling of --dir", cxxopts::value<std::string>())(
      "games", "games to play (default: selfplay.games)", cxxopts::value<int>())(
      "first-game-id", "id of the first game (board seeds derive from ids)",
      cxxopts::value<int64_t>()->default_value("0"))(
      "generations",
      "play this many rounds of --games one after another, as that many generations would: with "
      "selfplay.carry_games the games in flight go on from one round to the next. Round k (from 0) writes "
      "DIR/job-k/ and numbers its games from first-game-id + k * 10^8; a last line sums them all",
      cxxopts::value<int>()->default_value("1"))(
      "jobs", "old spelling of --generations", cxxopts::value<int>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const train::RunConfig config = train::load_run_config(required(args, "config"));
  const int jobs = value_or_old_spelling<int>(args, "selfplay", "jobs", "generations");
  if (jobs < 1 || jobs > 1000) throw std::invalid_argument("--generations must be in 1..1000");
  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.config_hash = config.hash;
  job.games = args.count("games") ? args["games"].as<int>() : config.selfplay.games;
  if (job.games < 1) throw std::invalid_argument("--games must be positive");
  if (config.selfplay.carry_games) job.carry = selfplay::make_game_carry();
  if (args.count("model")) {
    job.model = std::make_shared<nn::Model>(nn::load_model(args["model"].as<std::string>()));
    job.model_id = args["model"].as<std::string>();
  }
  job.progress = [](const selfplay::SelfplayProgress& p) {
    std::printf("%s\n", selfplay::format_progress(p).c_str());
    std::fflush(stdout);
  };
  const bool old_out = old_spelling_given(args, "selfplay", "out", "dir");
  const std::string out = required(args, old_out ? "out" : "dir");
  selfplay::SelfplayTotals totals;
  for (int k = 0; k < jobs; ++k) {
    job.out_dir = jobs == 1 ? out : (std::filesystem::path(out) / ("job-" + std::to_string(k))).string();
    job.first_game_id = args["first-game-id"].as<int64_t>() + int64_t(k) * 100'000'000;
    totals.add(train::learning_game(config.game()).selfplay(job));
  }
  if (jobs > 1) {
    std::printf("all %d jobs (%.1f s): %s", totals.jobs(), totals.sum().seconds,
                selfplay::format_progress(totals.sum()).c_str());
    if (job.carry) std::printf(", %zu games left in flight", selfplay::carried_games(*job.carry));
    std::printf("\n");
  }
  return 0;
}

}  // namespace mushroom::cli
