#include "run/actor.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "train/training_data.h"
#include "util/log_level.h"
#include "util/progress.h"

namespace mushroom::run {

namespace fs = std::filesystem;

ActorReport run_actor(const RunConfig& config, const Pipeline& pipeline, const RunDir& run, int g,
                      const std::string& model, const StageLog& log) {
  const fs::path data_dir = run.data(g);
  fs::create_directories(data_dir);
  ActorReport report;
  // Game ids are unique across the run: generation g numbers from g * 10^8,
  // and a resumed actor continues after the highest id already written.
  int64_t next_id = int64_t(g) * 100'000'000;
  for (const std::string& shard_path : train::find_shards(data_dir.string())) {
    const selfplay::Shard shard = selfplay::read_shard(shard_path, pipeline.schema);
    for (const auto& s : shard.samples) next_id = std::max(next_id, s.game_id + 1);
    report.games_before += int(shard.meta.games);
    report.samples_before += int64_t(shard.samples.size());
  }
  if (report.games_before >= config.selfplay.games) {
    log("selfplay: already complete (" + std::to_string(report.games_before) + " games)");
    return report;
  }
  if (report.games_before > 0)  // a resume: the games written to shards before the stop are kept
    log("resuming: " + std::to_string(report.games_before) + " of " + std::to_string(config.selfplay.games) +
        " games of generation " + std::to_string(g) + " already played (kept in " + data_dir.string() + ")");
  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.model_id = model.empty() ? "bootstrap-" + pipeline.bootstrap_id : model;
  job.config_hash = config.hash;
  job.out_dir = data_dir.string();
  job.games = config.selfplay.games - report.games_before;
  job.first_game_id = next_id;
  // The run's progress line counts the games (util/progress.h), those of
  // earlier sessions as done; --verbose also logs the figures every 10 s.
  progress().set_total(config.selfplay.games, report.games_before);
  job.progress_seconds = 10;
  job.progress = [&](const selfplay::SelfplayProgress& p) {
    progress().set_detail(std::to_string(report.samples_before + p.samples) + " samples");
    if (verbose() && p.games_done < p.games_total) log(selfplay::format_progress(p));
  };
  report.played = pipeline.selfplay(job, model);
  log(selfplay::format_progress(report.played));
  return report;
}

}  // namespace mushroom::run
