#include "run/eval_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "alphabeta/alphabeta.h"
#include "nn/model_file.h"
#include "agents/probcut_fitting.h"  // probcut_fit_path
#include "alphabeta/probcut.h"
#include "run/fit_stage.h"
#include "run/heldout_fit.h"
#include "run/match.h"
#include "run/run_dir.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "train/nnue/eval_net.h"
#include "train/nnue/eval_training.h"
#include "train/nnue/eval_window.h"
#include "train/training_data.h"
#include "util/progress.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kHeldOutSeedSalt = 0x68656c646f7574ull;  // "heldout"

selfplay::SelfplayProgress play_eval_selfplay(const RunConfig& config, selfplay::SelfplayJob& job,
                                              const std::string& model) {
  selfplay::EvalSelfplayJob eval_job;
  eval_job.job = job;
  eval_job.eval = config.evalplay;
  if (!model.empty()) eval_job.evaluation = std::make_shared<nnue::Network>(nnue::read_network(model));
  // The hand evaluation has no fit in a run (fit_selfplay_player): it labels without ProbCut.
  if (model.empty()) eval_job.eval.label_probcut = false;
  if (config.evalplay.label_probcut && !model.empty()) {
    // The run's fit stage made it before this self-play (fit_selfplay_player);
    // labelling without it would pass other labels off as the asked ones.
    const std::string fit = probcut_fit_path(model).string();
    if (!fs::exists(fit))
      throw std::runtime_error("evalplay.label_probcut: " + model + " has no Multi-ProbCut fit (" + fit +
                               "): the fit stage did not make it; its self-play will not label without it");
    eval_job.probcut = std::make_shared<ProbCutFit>(read_probcut_fit(fit));
    eval_job.probcut_source = fit;  // run_eval_selfplay refuses a fit made with another evaluation
  }
  if (!config.evalplay.teacher.empty())
    eval_job.teacher = std::make_shared<nn::Model>(nn::load_model(config.evalplay.teacher));
  return selfplay::run_eval_selfplay(eval_job);
}

train::TrainStats run_eval_learner(const RunConfig& config, const RunDir& run, int g,
                                   const std::string& init_model, const StageLog& log) {
  if (fs::exists(run.model(g))) {  // trained before a resume: its metrics say how
    finish_optimizer_state(run);  // a kill came after the candidate, before its optimizer state was the run's
    return trained_stats_of(run, g);
  }
  const nnue::Shape& asked = config.evalnet.shape;
  nnue::Network start;
  bool fresh = config.evalnet.fresh_start;
  if (!fresh && g > 1 && fs::exists(run.model(g - 1))) {
    start = nnue::read_network(run.model(g - 1).string());
    if (start.shape != asked) {
      // The config changed the architecture in the middle of a run (it may: runs resume with an edited config).
      log("train: the previous evaluation is " + start.shape.to_string() + " and [evalnet] now asks for " +
          asked.to_string() + ": this generation starts from fresh weights");
      fresh = true;
    }
  } else if (!fresh && !init_model.empty()) {
    start = nnue::read_network(init_model);  // of another architecture, train_eval refuses it by name
  } else {
    fresh = true;
  }
  if (fresh) {
    // Generation 1 without fresh_start starts from the run's own seed.
    const bool own_seed = g == 1 && !config.evalnet.fresh_start;
    start = train::initial_eval_model(config.evalnet, config.seed() + (own_seed ? 0 : uint64_t(g)));
  }
  // Fresh weights start fresh moments: the run's state belongs to other weights.
  const std::string optimizer = begin_optimizer_state(run, !fresh);
  const train::EvalTraining trained =
      train::train_eval(config.evalnet, config.train,
                        train::find_shards_from_generation(run.data().string(), config.train.window_first_generation),
                        start, g, trained_stats_of(run, g - 1).samples_seen, optimizer, log);
  write_file_atomic(run.train_metrics(g).string(), trained.metrics);
  write_trained_stats(run, g, trained.stats);
  // The candidate goes last: its presence marks the stage as finished.
  write_file_atomic(run.model(g).string(), nnue::serialize_network(trained.model));
  finish_optimizer_state(run);
  return trained.stats;
}

double log_loss(const std::vector<double>& x, const std::vector<double>& results, double scale) {
  double total = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double p = std::clamp(1.0 / (1.0 + std::exp(-x[i] / scale)), 1e-6, 1 - 1e-6);
    total -= results[i] * std::log(p) + (1 - results[i]) * std::log(1 - p);
  }
  return x.empty() ? 0 : total / double(x.size());
}

// Matches between alpha-beta players at a fixed depth, and the held-out fit.
class EvalJudge : public GameJudge {
 public:
  EvalJudge(const RunConfig& config, RunDir run, int threads)
      : config_(config), run_(std::move(run)), threads_(threads), gate_boards_(gate_file_boards(config.gate)) {}

  MatchResult gate(int g, const std::string& candidate, const std::string& best) override {
    const uint64_t seed = config_.seed() * 1000 + uint64_t(g);
    return play_paired_match(player(candidate), player(best),
                             match_boards(config_.gate.boards, seed, gate_boards_, int64_t(g) * config_.gate.boards),
                             seed, threads_);
  }
  std::string bootstrap_opponent() const override { return "the hand evaluation"; }

  Evaluation evaluate(int g, const std::string& candidate) override {
    Evaluation e;
    e.result = play_paired_match(player(candidate), player(""), config_.eval.boards,
                                 config_.seed() * 7777 + uint64_t(g), threads_);
    e.fit = fit(candidate);
    char line[300];
    std::snprintf(line, sizeof line,
                  "eval: candidate scores %.3f against the hand evaluation at depth %d (mean margin %+.1f); held-out "
                  "log loss %.4f (hand %.4f, material %.4f), search-score loss %.5f (hand %.5f); mean error "
                  "%.2f cells from the search score (hand %.2f), %.2f from the final margin (hand %.2f); %d positions",
                  e.result.score(), config_.evalnet.match_depth, e.result.mean_margin, e.fit->learned_log_loss,
                  e.fit->hand_log_loss, e.fit->material_log_loss, e.fit->learned_search_loss,
                  e.fit->hand_search_loss, e.fit->learned_search_cells, e.fit->hand_search_cells,
                  e.fit->learned_result_cells, e.fit->hand_result_cells, e.fit->positions);
    e.log_line = line;
    return e;
  }

 private:
  AgentMaker player(const std::string& evaluation) const {
    return builtin_agent_maker("alphabeta", judge_player_options(config_, evaluation));
  }

  // The held-out games, played once per run (resumable like any self-play).
  const std::vector<train::EvalRecord>& held_out() {
    if (!held_out_.empty()) return held_out_;
    const fs::path dir = run_.root / "heldout";
    const int64_t games = train::shard_totals(dir.string()).games;
    if (games < config_.evalplay.heldout_games) {
      selfplay::SelfplayJob job;
      job.config = config_.selfplay;
      job.config.seed = config_.seed() ^ kHeldOutSeedSalt;
      job.model_id = "heldout-hand";
      job.config_hash = config_.hash;
      job.out_dir = dir.string();
      job.games = config_.evalplay.heldout_games - int(games);
      job.first_game_id = games;
      progress().expect(job.games);  // its games count in the stage under way (util/progress.h)
      play_eval_selfplay(config_, job, "");
    }
    held_out_ = read_heldout_positions(dir.string(), threads_, [](const std::string&) {});
    return held_out_;
  }

  view::FitRecord fit(const std::string& candidate) {
    return heldout_fit(held_out(), nnue::read_network(candidate), config_.evalnet.scale);
  }

  const RunConfig& config_;
  RunDir run_;
  int threads_;
  const std::vector<Position> gate_boards_;  // gate.boards_file's boards (none: seeded boards)
  std::vector<train::EvalRecord> held_out_;
};

}  // namespace

std::map<std::string, std::string> judge_player_options(const RunConfig& config, const std::string& evaluation) {
  // No root solver: its budget comes from the clock, and these matches
  // must compare evaluations, with every move decided by the same depth.
  std::map<std::string, std::string> options{
      {"depth", std::to_string(config.evalnet.match_depth)}, {"eval", evaluation}, {"solver", "0"}};
  if (config.probcut.enabled && !evaluation.empty()) {
    // The fit stage (run/fit_stage.h) made it before the gate; the agent
    // refuses one made with another evaluation.
    const std::string fit = probcut_fit_path(evaluation).string();
    if (!fs::exists(fit))
      throw std::runtime_error("probcut: " + evaluation + " has no fit (" + fit + "): the fit stage did not run");
    options["probcut"] = fit;
  }
  return options;
}

ResultFit fit_results(const std::vector<double>& x, const std::vector<double>& results) {
  ResultFit best{log_loss(x, results, 1.0), 1.0};
  for (double log_s = std::log(0.25); log_s <= std::log(200.0); log_s += 0.05) {
    const double loss = log_loss(x, results, std::exp(log_s));
    if (loss < best.log_loss) best = {loss, std::exp(log_s)};
  }
  // Refine around the grid's best by golden-section search.
  double lo = std::log(best.scale) - 0.05, hi = std::log(best.scale) + 0.05;
  for (int i = 0; i < 40; ++i) {
    const double a = hi - 0.618 * (hi - lo), b = lo + 0.618 * (hi - lo);
    if (log_loss(x, results, std::exp(a)) < log_loss(x, results, std::exp(b))) hi = b;
    else lo = a;
  }
  const double scale = std::exp((lo + hi) / 2);
  const double loss = log_loss(x, results, scale);
  if (loss < best.log_loss) best = {loss, scale};
  return best;
}

Pipeline eval_pipeline(const RunConfig& config) {
  Pipeline p;
  p.model_extension = ".eval";
  p.schema = selfplay::mushroom_eval_schema().game;
  p.bootstrap_name = "the hand evaluation";
  p.bootstrap_id = "hand";
  p.selfplay = [&config](selfplay::SelfplayJob& job, const std::string& model) {
    return play_eval_selfplay(config, job, model);
  };
  p.learn = [&config](const RunDir& run, int g, const std::string& init_model, const StageLog& log) {
    return run_eval_learner(config, run, g, init_model, log);
  };
  p.make_judge = [&config](const RunDir& run, int threads) -> std::unique_ptr<GameJudge> {
    return std::make_unique<EvalJudge>(config, run, threads);
  };
  p.check_model = [](const std::string& model) { nnue::read_network(model); };
  return p;
}

}  // namespace mushroom::run
