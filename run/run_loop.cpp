#include "run/run_loop.h"

#include <chrono>
#include <cmath>
#include <filesystem>

#include "run/actor.h"
#include "run/fit_stage.h"
#include "run/gatekeeper.h"
#include "run/ladder_stage.h"
#include "run/pipeline.h"
#include "run/run_clock.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "util/progress.h"
#include "util/text.h"
#include "util/version.h"
#include "view/dashboard.h"
#include "view/run_progress.h"
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
                       const std::function<void(const std::string&)>& log,
                       const std::vector<std::pair<std::string, double>>& stage_seconds) {
  // The record goes first: its presence marks the generation as finished,
  // and its "promoted" field is what best_model_of_run reads; the pointer
  // for actors follows it.
  view::GenerationRecord record = make_record(g, actor, trained, gate, ladder);
  record.stage_seconds = stage_seconds;
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

// Each generation's stages, as the progress reporter names them, in order.
std::vector<RunStage> stages_of(const RunConfig& config) {
  std::vector<RunStage> stages = {"self-play", "train"};
  if (config.probcut.enabled) stages.emplace_back("fit");
  stages.emplace_back("gate");
  if (config.ladder.every > 0) stages.emplace_back("ladder", config.ladder.every);
  return stages;
}

// The run on the process's progress reporter while the loop goes on: its
// estimate attached, RUN/progress.json rewritten at each stage's start and
// end and every few seconds between, the dashboard at each stage's start
// and end and every minute between. Detached at the end, even by an error.
class RunOnProgress {
 public:
  RunOnProgress(const RunDir& run, RunEstimate& estimate) : run_(run), reporter_(progress()) {
    reporter_.attach_run(&estimate);
    reporter_.publish_to([this](const ProgressSnapshot& s) { publish(s); }, 5);
  }
  ~RunOnProgress() {
    reporter_.publish_to(nullptr, 0);
    reporter_.attach_run(nullptr);
    reporter_.set_position("");
  }
  // The run has done all its generations: progress.json and the page say so.
  void finished() {
    reporter_.publish_to(nullptr, 0);
    try {
      view::write_run_progress(run_.root.string(), reporter_.snapshot(), true);
      view::write_dashboard(run_.root.string());
    } catch (const std::exception&) {
      // For people, as the dashboard is: a failure stops nothing.
    }
  }

 private:
  void publish(const ProgressSnapshot& s) {  // the reporter ignores what this throws
    view::write_run_progress(run_.root.string(), s, false);
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const std::string showing = s.position + "|" + s.stage + (s.active && !s.ended ? "" : "|ended");
    if (showing == dashboard_showing_ && now - dashboard_at_ < 60) return;
    dashboard_showing_ = showing;
    dashboard_at_ = now;
    view::write_dashboard(run_.root.string());
  }
  const RunDir& run_;
  Progress& reporter_;
  std::string dashboard_showing_;
  double dashboard_at_ = -1e300;
};

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

  // The whole run's estimate starts from the stages its records timed (a
  // resume), and grows with each stage this process finishes.
  const std::vector<RunStage> stages = stages_of(config);
  RunEstimate estimate(stages, generations);
  for (int g = 1; g <= generations; ++g)
    if (fs::exists(run.record(g)))
      for (const auto& [stage, seconds] : view::read_generation_record(run.record(g).string()).stage_seconds)
        estimate.add(stage, seconds);
  RunOnProgress on_progress(run, estimate);
  Progress& reporter = progress();
  for (int g = 1; g <= generations; ++g) {
    if (fs::exists(run.record(g))) continue;  // finished earlier
    estimate.at_generation(g);
    reporter.set_position("generation " + std::to_string(g) + " of " + std::to_string(generations));
    // Each stage on the progress reporter; its length goes in the record.
    std::vector<std::pair<std::string, double>> timed;
    auto staged = [&](const std::string& stage, const std::string& unit, auto&& work) {
      return run_stage(reporter, stage, unit, work, &timed);
    };
    const std::string best = best_model_of_run(run.root.string(), init, run.model_extension);
    log("== generation " + std::to_string(g) + " of " + std::to_string(generations) + " (self-play with " +
        (best.empty() ? pipeline.bootstrap_name : best) + ")");
    if (config.evalplay.label_probcut)  // before the labels need it
      staged("fit for self-play", "games", [&] {
        fit_selfplay_player(config.probcut, config.evalplay.label_probcut, best, log);
        return 0;
      });
    const ActorReport actor = staged("self-play", "games", [&] { return run_actor(config, pipeline, run, g, best, log); });
    const train::TrainStats trained = staged("train", "steps", [&] { return pipeline.learn(run, g, init, log); });
    if (config.probcut.enabled)
      staged("fit", "games", [&] {
        fit_gate_players(config.probcut, run, g, best, log);
        return 0;
      });
    const GateReport gate = staged("gate", "games", [&] { return gatekeeper.judge(g, run.model(g).string(), best); });
    const auto ladder = RunStage("ladder", config.ladder.every).runs_in(g)
                            ? staged("ladder", "games",
                                     [&] { return place_on_ladder(config.ladder, run, g, log, config.probcut.enabled); })
                            : std::optional<view::LadderRecord>{};
    record_generation(run, g, actor, trained, gate, ladder, init, config.hash, log, timed);
  }
  on_progress.finished();
  const std::string best = best_model_of_run(run.root.string(), init, run.model_extension);
  log("run complete: " + std::to_string(generations) + " generations; best model: " + (best.empty() ? "none" : best));
}

}  // namespace mushroom::run
