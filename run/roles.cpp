#include "run/roles.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "run/actor.h"
#include "run/fit_stage.h"
#include "run/gatekeeper.h"
#include "run/ladder_stage.h"
#include "run/net_pipeline.h"
#include "run/pipeline.h"
#include "run/run_clock.h"
#include "run/run_config.h"
#include "train/training_data.h"
#include "util/log_level.h"
#include "util/progress.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

Role parse_role(const std::string& name) {
  if (name == "all") return Role::kAll;
  if (name == "actor") return Role::kActor;
  if (name == "learner") return Role::kLearner;
  if (name == "gatekeeper") return Role::kGatekeeper;
  throw std::invalid_argument("unknown role '" + name + "' (all, actor, learner or gatekeeper)");
}

std::string ActorIdentity::tag() const {
  std::string host_part = host.empty() ? "host" : host;
  for (char& c : host_part)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  char index_part[16];
  std::snprintf(index_part, sizeof index_part, ".a%03d", index);
  return host_part + index_part;
}

int64_t actor_game_id_base(int generation, int index) {
  if (index < 0 || index >= kMaxActors)
    throw std::invalid_argument("actor index " + std::to_string(index) + " is outside 0.." +
                                std::to_string(kMaxActors - 1));
  return int64_t(generation) * 1'000'000'000'000 + int64_t(index + 1) * kActorIds;
}

namespace {

// What the roles share: the config, its pipeline and the run directory.
struct RunContext {
  explicit RunContext(const RunOptions& options)
      : config(load_run_config(options.config_path, options.overrides)),
        pipeline(pipeline_of(config)),
        run{options.dir, pipeline.model_extension},
        generations(options.generations > 0 ? options.generations : config.run.generations),
        init_model(run_init_model(run, options.init_model)) {}
  RunConfig config;
  Pipeline pipeline;
  RunDir run;
  int generations;
  std::string init_model;  // the run's copy of --init (run_init_model), "" for none
};

bool stop_requested(const RunContext& c) { return fs::exists(c.run.stop_file()); }
bool run_finished(const RunContext& c) { return fs::exists(c.run.record(c.generations)); }

// Sleeps a poll interval; false when the role should stop instead.
bool wait_a_while(const RunContext& c, double seconds) {
  if (stop_requested(c) || run_finished(c)) return false;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return !stop_requested(c) && !run_finished(c);
}

// The generation actors feed: the first without a candidate (generations + 1 when all have one).
int collecting_generation(const RunContext& c) {
  int g = 1;
  while (g <= c.generations && fs::exists(c.run.model(g))) ++g;
  return g;
}

// The next chunk of this actor's ids in generation g, after those its shards already used.
// after: the first id of the chunk this process used last in generation g,
// if any. Its files alone cannot tell: with carry_games a chunk may write
// no shard of its own games (all it finished were carried in), while its
// games in flight still hold its ids.
int64_t next_actor_chunk(const RunContext& c, int g, const ActorIdentity& actor, std::optional<int64_t> after) {
  const int64_t base = actor_game_id_base(g, actor.index);
  int64_t next = after ? *after + kActorChunkIds : base;
  char marker[16];  // ".a007-w", on any host: a requeued actor may land elsewhere
  std::snprintf(marker, sizeof marker, ".a%03d-w", actor.index);
  for (const std::string& path : train::find_shards(c.run.data(g).string())) {
    const std::string name = fs::path(path).filename().string();  // shard-<first id>-<tag>-wNN.h5
    if (name.find(marker) == std::string::npos) continue;
    const int64_t first = std::stoll(name.substr(6, name.find('-', 6) - 6));
    if (first >= base && first < base + kActorIds)
      next = std::max(next, base + ((first - base) / kActorChunkIds + 1) * kActorChunkIds);
  }
  if (next + kActorChunkIds > base + kActorIds)
    throw std::runtime_error("actor " + actor.tag() + " has used all its game ids in generation " + std::to_string(g));
  return next;
}

void run_actor_role(const RoleOptions& options, const RunContext& c, const StageLog& log) {
  actor_game_id_base(1, options.actor.index);  // a bad index is an error before any game
  const std::string tag = options.actor.tag();
  // The fit beside --init, adopted as the gatekeeper does (idempotent and
  // atomic, so whichever role starts first): else an actor that starts
  // first would fit the --init model itself, and the fit beside it would
  // be dropped.
  if (c.config.probcut.enabled && !c.init_model.empty()) adopt_init_fit(options.run.init_model, c.init_model, log);
  const int chunk = options.chunk_games > 0 ? options.chunk_games : std::max(1, c.config.selfplay.games / 4);
  // With carry_games, a chunk starts games until `chunk` have finished, so
  // up to every worker's games in flight more than that.
  const selfplay::SelfplayConfig& sp = c.config.selfplay;
  const int64_t started_at_most = chunk + (sp.carry_games ? int64_t(sp.workers) * sp.games_in_flight : 0);
  if (started_at_most > kActorChunkIds)
    throw std::invalid_argument("--chunk-games" + std::string(sp.carry_games ? " plus the games in flight" : "") +
                                " must be at most " + std::to_string(kActorChunkIds));
  std::optional<std::pair<int, int64_t>> last_chunk;  // (generation, first id) of this process's last chunk
  std::string model = c.init_model;  // what the chunks self-play with
  const auto model_name = [&] { return model.empty() ? c.pipeline.bootstrap_name : model; };
  bool announced = false;
  while (true) {
    if (stop_requested(c)) return log("actor " + tag + ": the run directory holds 'stop'; stopping");
    if (run_finished(c)) return log("actor " + tag + ": the run is complete; stopping");
    const int g = collecting_generation(c);
    if (g > c.generations) {  // every candidate exists; the gatekeeper is finishing
      wait_a_while(c, options.poll_seconds);
      continue;
    }
    std::string wanted;
    try {
      wanted = read_promoted_pointer(c.run);
    } catch (const std::exception& e) {
      log("actor " + tag + ": " + e.what() + "; keeping " + model_name());
    }
    if (!wanted.empty() && wanted != model) {
      try {
        c.pipeline.check_model(wanted);
        model = wanted;
        announced = false;
      } catch (const std::exception& e) {
        log("actor " + tag + ": cannot read the promoted model (" + std::string(e.what()) + "); keeping " +
            model_name());
      }
    }
    if (!announced) {
      log("actor " + tag + ": self-play with " + model_name());
      // The labels' fit, made here when the gatekeeper has not made it yet
      // (the --init model's: the gate fits it only after generation 1's
      // games); the same bytes as the gatekeeper's, written atomically.
      fit_selfplay_player(c.config.probcut, c.config.evalplay.label_probcut, model,
                          [&](const std::string& line) { log("actor " + tag + ": " + line); });
    }
    announced = true;
    selfplay::SelfplayJob job;
    job.config = c.config.selfplay;
    job.model_id = model.empty() ? "bootstrap-" + c.pipeline.bootstrap_id : model;
    job.config_hash = c.config.hash;
    job.out_dir = c.run.data(g).string();
    job.games = chunk;
    job.first_game_id = next_actor_chunk(
        c, g, options.actor, last_chunk && last_chunk->first == g ? std::optional(last_chunk->second) : std::nullopt);
    last_chunk = std::make_pair(g, job.first_game_id);
    job.shard_tag = tag;
    // The progress line counts the chunk's games (util/progress.h);
    // --verbose logs the figures every 10 s.
    job.progress = [&](const selfplay::SelfplayProgress& p) {
      if (verbose()) log("actor " + tag + ": " + selfplay::format_progress(p));
    };
    fs::create_directories(job.out_dir);
    progress().set_position("generation " + std::to_string(g) + " of " + std::to_string(c.generations));
    const selfplay::SelfplayProgress played = run_stage(progress(), "self-play", "games", [&] {
      progress().set_total(job.games);
      return c.pipeline.selfplay(job, model);
    });
    char line[200];
    std::snprintf(line, sizeof line, "actor %s: generation %d: %d games in %.1f s (%.1f games/min)", tag.c_str(), g,
                  played.games_done, played.seconds, played.seconds > 0 ? played.games_done * 60.0 / played.seconds : 0);
    log(line);
  }
}

void run_learner_role(const RoleOptions& options, const RunContext& c, const StageLog& log) {
  for (int g = 1; g <= c.generations; ++g) {
    if (fs::exists(c.run.model(g))) continue;
    bool said = false;
    while (train::shard_totals(c.run.data(g).string()).games < c.config.selfplay.games) {
      if (!said) log("learner: waiting for " + std::to_string(c.config.selfplay.games) + " games in " + c.run.data(g).string());
      said = true;
      if (!wait_a_while(c, options.poll_seconds)) return log("learner: stopping");
    }
    log("== learner: generation " + std::to_string(g) + " of " + std::to_string(c.generations));
    progress().set_position("generation " + std::to_string(g) + " of " + std::to_string(c.generations));
    run_stage(progress(), "train", "steps", [&] { return c.pipeline.learn(c.run, g, c.init_model, log); });
  }
  log("learner: every generation's candidate is trained");
}

// The gatekeeper also makes the fits ([probcut], run/fit_stage.h): it is
// the role that plays with them, and fitting is CPU work like its matches,
// while the learner may hold a GPU.
void run_gatekeeper_role(const RoleOptions& options, const RunContext& c, const StageLog& log) {
  Gatekeeper gatekeeper(c.config, c.pipeline.make_judge(c.run, options.run.threads), log);
  check_ladder_references(c.config.ladder, c.run);  // before waiting on the learner, not after
  if (c.config.probcut.enabled && !c.init_model.empty()) adopt_init_fit(options.run.init_model, c.init_model, log);
  for (int g = 1; g <= c.generations; ++g) {
    if (fs::exists(c.run.record(g))) continue;
    bool said = false;
    while (!fs::exists(c.run.model(g))) {
      if (!said) log("gatekeeper: waiting for " + c.run.model(g).string());
      said = true;
      if (!wait_a_while(c, options.poll_seconds)) return log("gatekeeper: stopping");
    }
    const std::string best = best_model_of_run(c.run.root.string(), c.init_model, c.run.model_extension);
    log("== gatekeeper: generation " + std::to_string(g) + " against " +
        (best.empty() ? c.pipeline.bootstrap_name : best));
    progress().set_position("generation " + std::to_string(g) + " of " + std::to_string(c.generations));
    if (c.config.probcut.enabled)
      run_stage(progress(), "fit", "games", [&] {
        fit_gate_players(c.config.probcut, c.run, g, best, log);
        return 0;
      });
    const GateReport gate =
        run_stage(progress(), "gate", "games", [&] { return gatekeeper.judge(g, c.run.model(g).string(), best); });
    const auto ladder = RunStage("ladder", c.config.ladder.every).runs_in(g)
                            ? run_stage(progress(), "ladder", "games",
                                        [&] { return place_on_ladder(c.config.ladder, c.run, g, log, c.config.probcut.enabled); })
                            : std::optional<view::LadderRecord>{};
    // The actors' games and samples of the generation so far (actors play on).
    const train::ShardTotals played = train::shard_totals(c.run.data(g).string());
    ActorReport actor;
    actor.games_before = int(played.games);
    actor.samples_before = played.samples;
    record_generation(c.run, g, actor, trained_stats_of(c.run, g), gate, ladder, c.init_model, c.config.hash,
                      log);
  }
  log("gatekeeper: every generation is recorded");
}

}  // namespace

void run_role(const RoleOptions& options) {
  if (options.role == Role::kAll) return run_training_loop(options.run);
  const RunContext c(options.run);
  c.run.prepare(false);
  RunClock clock(c.run.root);
  const StageLog log = [&](const std::string& line) {
    clock.touch();
    if (options.run.log) options.run.log(line);
  };
  if (!fs::exists(c.run.config_copy()))
    write_file_atomic(c.run.config_copy().string(), saved_config_text(options.run.config_path, options.run.overrides));
  switch (options.role) {
    case Role::kActor: return run_actor_role(options, c, log);
    case Role::kLearner: return run_learner_role(options, c, log);
    case Role::kGatekeeper: return run_gatekeeper_role(options, c, log);
    case Role::kAll: break;
  }
}

}  // namespace mushroom::run
