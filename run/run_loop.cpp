#include "run/run_loop.h"

#include <filesystem>

#include "run/actor.h"
#include "run/fit_stage.h"
#include "run/gatekeeper.h"
#include "run/ladder_stage.h"
#include "run/pipeline.h"
#include "run/run_clock.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "util/text.h"
#include "util/version.h"
#include "view/dashboard.h"
#include "view/run_plots.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {

view::GenerationRecord make_record(int g, const ActorReport& actor, const train::TrainStats& trained,
                                   const GateReport& gate, const std::optional<view::LadderRecord>& ladder) {
  view::GenerationRecord r;
  r.generation = g;
  r.promoted = gate.promoted;
  r.selfplay_games = actor.games();
  r.selfplay_seconds = actor.played.seconds;
  r.selfplay_games_per_minute = actor.played.seconds > 0 ? actor.played.games_done * 60.0 / actor.played.seconds : 0;
  r.selfplay_samples = actor.samples();  // the generation's, a resume's earlier shards included
  r.mean_game_plies = actor.played.mean_game_plies;
  r.batch_fill = actor.played.batch_fill;
  if (actor.played.device_busy >= 0) r.device_busy = actor.played.device_busy;
  r.nn_positions = double(actor.played.nn_positions);
  r.train_steps = trained.steps;
  r.train_seconds = trained.seconds;
  r.loss = trained.loss;
  r.samples_seen = trained.samples_seen;
  r.gate_games = gate.gate.games;
  r.gate_score = gate.gate.score();
  r.eval_games = gate.eval.games;
  r.eval_score = gate.eval_score;
  r.eval_margin = gate.eval.mean_margin;
  r.grade = gate.grade;
  r.fit = gate.fit;
  r.ladder = ladder;
  return r;
}

// Plots and the dashboard are for people: a failure is a warning.
void write_dashboard_logged(const RunDir& run, const StageLog& log) {
  try {
    log("dashboard: " + view::write_dashboard(run.root.string()));
  } catch (const std::exception& e) {
    log(std::string("dashboard: warning: ") + e.what());
  }
}

void draw_pictures(const RunDir& run, const StageLog& log) {
  try {
    log("plots: " + view::draw_run_plots(run.root.string()));
  } catch (const std::exception& e) {
    log(std::string("plots: warning: ") + e.what());
  }
  write_dashboard_logged(run, log);
}

}  // namespace

void record_generation(const RunDir& run, int g, const ActorReport& actor, const train::TrainStats& trained,
                       const GateReport& gate, const std::optional<view::LadderRecord>& ladder,
                       const std::string& init_model, const std::string& config_hash,
                       const std::function<void(const std::string&)>& log) {
  // The record goes first: its presence marks the generation as finished,
  // and its "promoted" field is what best_model_of_run reads; the pointer
  // for actors follows it.
  view::GenerationRecord record = make_record(g, actor, trained, gate, ladder);
  record.run_seconds = run_clock_seconds(run.root);
  record.mushroom_version = build_version();
  record.config_hash = config_hash;
  write_file_atomic(run.record(g).string(), view::to_json(record));
  write_promoted_pointer(run, best_model_of_run(run.root.string(), init_model, run.model_extension));
  draw_pictures(run, log);
}

namespace {

// A resumed run whose settings changed says which, one line per key, and
// nothing when only the text changed (comments, or a --set moved into the
// file).
void note_changed_settings(const std::string& saved_path, const RunConfig& now, const StageLog& log) {
  std::vector<std::string> changes;
  try {
    changes = changed_settings(parse_saved_config(read_file(saved_path), saved_path), now);
  } catch (const std::exception& e) {
    log(std::string("note: the run's saved config (") + saved_path + ") no longer reads (" + e.what() +
        "); using the new one from here on");
    return;
  }
  for (const std::string& change : changes) log("note: a setting changes from here on: " + change);
}

}  // namespace

void run_training_loop(const RunOptions& options) {
  const RunConfig config = load_run_config(options.config_path, options.overrides);
  const Pipeline pipeline = pipeline_of(config);
  const RunDir run{options.dir, pipeline.model_extension};
  run.prepare();
  RunClock clock(run.root);
  const StageLog log = [&](const std::string& line) {
    clock.touch();
    if (options.log) options.log(line);
  };
  const std::string config_text = saved_config_text(options.config_path, options.overrides);
  if (fs::exists(run.config_copy()) && read_file(run.config_copy().string()) != config_text)
    note_changed_settings(run.config_copy().string(), config, log);
  write_file_atomic(run.config_copy().string(), config_text);
  const int generations = options.generations > 0 ? options.generations : config.run.generations;
  Gatekeeper gatekeeper(config, pipeline.make_judge(run, options.threads), log);
  check_ladder_references(config.ladder, run);  // fail before the generation's work, not after it
  // The run's own copy of --init (and its fit) stands for it from here on.
  const std::string init = run_init_model(run, options.init_model);
  if (config.probcut.enabled && !init.empty()) adopt_init_fit(options.init_model, init, log);
  write_dashboard_logged(run, log);  // from the first minute: it says when no generation has finished yet

  for (int g = 1; g <= generations; ++g) {
    if (fs::exists(run.record(g))) continue;  // finished earlier
    const std::string best = best_model_of_run(run.root.string(), init, run.model_extension);
    log("== generation " + std::to_string(g) + " of " + std::to_string(generations) + " (self-play with " +
        (best.empty() ? pipeline.bootstrap_name : best) + ")");
    fit_selfplay_player(config.probcut, config.evalplay.label_probcut, best, log);  // before the labels need it
    const ActorReport actor = run_actor(config, pipeline, run, g, best, log);
    const train::TrainStats trained = pipeline.learn(run, g, init, log);
    fit_gate_players(config.probcut, run, g, best, log);
    const GateReport gate = gatekeeper.judge(g, run.model(g).string(), best);
    const auto ladder = place_on_ladder(config.ladder, run, g, log, config.probcut.enabled);
    record_generation(run, g, actor, trained, gate, ladder, init, config.hash, log);
  }
  const std::string best = best_model_of_run(run.root.string(), init, run.model_extension);
  log("run complete: " + std::to_string(generations) + " generations; best model: " + (best.empty() ? "none" : best));
}

}  // namespace mushroom::run
