// `mushroom selfplay`: self-play games into shards (LibTorch builds).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "run/pipeline.h"
#include "run/run_config.h"
#include "selfplay/selfplay_runner.h"
#include "util/log_level.h"
#include "util/progress.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_selfplay(int argc, char** argv) {
  cxxopts::Options opts("mushroom selfplay",
                        "Plays self-play games with the [selfplay] settings of a run config and writes HDF5 shards "
                        "(schema: selfplay/shard.h) into --dir. What plays is what the config's run learns: the conv "
                        "net, or with run.model = \"eval\" the learned alpha-beta evaluation (labelled by "
                        "[evalplay]). Without --model it uses the bootstrap (selfplay.bootstrap, or the hand "
                        "evaluation), so data can be made from nothing.");
  opts.add_options()("config", std::string("run config (TOML)") + kConfigLookupHelp, cxxopts::value<std::string>())(
      "model",
      "model file: a conv net (.h5), or a learned evaluation (.eval, eval.bin) when run.model = \"eval\" "
      "(default: none, the bootstrap)",
      cxxopts::value<std::string>())(
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
      "jobs", "old spelling of --generations", cxxopts::value<int>())(
      "set", "section.key=value: override one config key (repeatable), as `mushroom run --set`",
      cxxopts::value<std::vector<std::string>>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  std::vector<std::string> overrides;
  if (args.count("set")) overrides = args["set"].as<std::vector<std::string>>();
  const run::RunConfig config = run::load_run_config(config_file(args), overrides);
  const run::Pipeline pipeline = run::pipeline_of(config);
  const int jobs = value_or_old_spelling<int>(args, "selfplay", "jobs", "generations");
  if (jobs < 1 || jobs > 1000) throw std::invalid_argument("--generations must be in 1..1000");
  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.config_hash = config.hash;
  job.games = args.count("games") ? args["games"].as<int>() : config.selfplay.games;
  if (job.games < 1) throw std::invalid_argument("--games must be positive");
  const std::string model = args.count("model") ? args["model"].as<std::string>() : "";
  if (!model.empty()) {
    pipeline.check_model(model);  // names the file and what is wrong with it before any game starts
    job.model_id = model;
  }
  // The progress line counts the games (util/progress.h); each job's last
  // figures are printed, and with --verbose its figures every 10 s.
  job.progress = [&](const selfplay::SelfplayProgress& p) {
    if (p.games_done >= p.games_total || verbose()) print_line(selfplay::format_progress(p));
  };
  const bool old_out = old_spelling_given(args, "selfplay", "out", "dir");
  const std::string out = required(args, old_out ? "out" : "dir");
  selfplay::SelfplayTotals totals;
  ProgressStage stage(progress(), "self-play", "games");
  progress().set_total(int64_t(job.games) * jobs);
  for (int k = 0; k < jobs; ++k) {
    job.out_dir = jobs == 1 ? out : (std::filesystem::path(out) / ("job-" + std::to_string(k))).string();
    job.first_game_id = args["first-game-id"].as<int64_t>() + int64_t(k) * 100'000'000;
    totals.add(pipeline.selfplay(job, model));
  }
  stage.finish();
  if (jobs > 1) {
    std::printf("all %d jobs (%.1f s): %s", totals.jobs(), totals.sum().seconds,
                selfplay::format_progress(totals.sum()).c_str());
    if (job.carry) std::printf(", %zu games left in flight", selfplay::carried_games(*job.carry));
    std::printf("\n");
  }
  return 0;
}

}  // namespace mushroom::cli
