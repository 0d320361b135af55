#include "train/eval_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "mushroom/alphabeta.h"
#include "mushroom/learned_evaluator.h"
#include "mushroom/mushroom_evaluators.h"
#include "nn/model_file.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "train/eval_trainer.h"
#include "train/eval_window.h"
#include "train/learner.h"
#include "train/match.h"
#include "train/training_data.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::train {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kHeldOutSeedSalt = 0x68656c646f7574ull;  // "heldout"

selfplay::SelfplayProgress play_eval_selfplay(const RunConfig& config, selfplay::SelfplayJob& job,
                                              const std::string& model) {
  selfplay::EvalSelfplayJob eval_job;
  eval_job.job = job;
  eval_job.eval = config.evalplay;
  if (!model.empty()) eval_job.evaluation = std::make_shared<LearnedEvalModel>(read_learned_eval(model));
  if (!config.evalplay.teacher.empty())
    eval_job.teacher = std::make_shared<nn::Model>(nn::load_model(config.evalplay.teacher));
  return selfplay::run_eval_selfplay(eval_job);
}

TrainStats run_eval_learner(const RunConfig& config, const RunDir& run, int g, const std::string& init_model,
                            const StageLog& log) {
  if (fs::exists(run.model(g))) return {};
  const std::string asked = eval_net_architecture(config.evalnet);
  LearnedEvalModel start;
  bool fresh = config.evalnet.fresh_start;
  if (!fresh && g > 1 && fs::exists(run.model(g - 1))) {
    start = read_learned_eval(run.model(g - 1).string());
    if (learned_eval_architecture(start) != asked) {
      // The config changed the architecture in the middle of a run (it may: runs resume with an edited config).
      log("train: the previous evaluation is " + learned_eval_architecture(start) + " and [evalnet] now asks for " +
          asked + ": this generation starts from fresh weights");
      fresh = true;
    }
  } else if (!fresh && !init_model.empty()) {
    start = read_learned_eval(init_model);  // of another architecture, train_eval refuses it by name
  } else {
    fresh = true;
  }
  if (fresh) {
    // Generation 1 without fresh_start starts from the run's own seed.
    const bool own_seed = g == 1 && !config.evalnet.fresh_start;
    start = initial_eval_model(config.evalnet, config.seed() + (own_seed ? 0 : uint64_t(g)));
    fs::remove(run.optimizer());  // its moments belong to other weights
  }
  const EvalTraining trained = train_eval(config,
                                          find_shards_from_generation(run.data().string(),
                                                                      config.train.window_first_generation),
                                          start, g,
                                          trained_stats_of(run, g - 1).samples_seen, run.optimizer().string(), log);
  write_file_atomic(run.train_metrics(g).string(), trained.metrics);
  // The candidate goes last: its presence marks the stage as finished.
  write_file_atomic(run.model(g).string(), serialize_learned_eval(trained.model));
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
  // No root solver: its budget comes from the clock, and these matches
  // must compare evaluations, with every move decided by the same depth.
  AgentMaker player(const std::string& evaluation) const {
    return builtin_agent_maker(
        "alphabeta", {{"depth", std::to_string(config_.evalnet.match_depth)}, {"eval", evaluation}, {"solver", "0"}});
  }

  // The held-out games, played once per run (resumable like any self-play).
  const std::vector<EvalRecord>& held_out() {
    if (!held_out_.empty()) return held_out_;
    const fs::path dir = run_.root / "heldout";
    const int64_t games = shard_totals(dir.string()).games;
    if (games < config_.evalplay.heldout_games) {
      selfplay::SelfplayJob job;
      job.config = config_.selfplay;
      job.config.seed = config_.seed() ^ kHeldOutSeedSalt;
      job.model_id = "heldout-hand";
      job.config_hash = config_.hash;
      job.out_dir = dir.string();
      job.games = config_.evalplay.heldout_games - int(games);
      job.first_game_id = games;
      play_eval_selfplay(config_, job, "");
    }
    held_out_ = load_eval_window(find_shards(dir.string()), int64_t(1) << 40, [](const std::string&) {}, threads_).records;
    return held_out_;
  }

  view::FitRecord fit(const std::string& candidate) {
    const std::vector<EvalRecord>& records = held_out();
    LearnedEvaluator learned(read_learned_eval(candidate));
    std::vector<double> learned_x, hand_x, material_x, results, searched, margins;
    for (const EvalRecord& r : records) {
      const Position pos = position_of(r);
      learned.set_root(pos);
      learned_x.push_back(learned.evaluate(pos, leaf_moves_of(r, pos)) / double(kEvalScale));
      hand_x.push_back(hand_evaluation(pos, r.gain) / double(kEvalScale));
      material_x.push_back(pos.margin_for_side_to_move());
      results.push_back(r.margin > 0 ? 1.0 : r.margin < 0 ? 0.0 : 0.5);
      searched.push_back(r.search_score / double(kEvalScale));
      margins.push_back(r.margin);
    }
    // The probability target's error, at the training scale (train/eval_net.h).
    const auto search_loss = [&](const std::vector<double>& x) {
      const double scale = config_.evalnet.scale;
      double total = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        const double d = 1 / (1 + std::exp(-x[i] / scale)) - 1 / (1 + std::exp(-searched[i] / scale));
        total += d * d;
      }
      return x.empty() ? 0.0 : total / double(x.size());
    };
    const auto cells_error = [](const std::vector<double>& x, const std::vector<double>& truth) {
      double total = 0;
      for (size_t i = 0; i < x.size(); ++i) total += std::fabs(x[i] - truth[i]);
      return x.empty() ? 0.0 : total / double(x.size());
    };
    view::FitRecord f{fit_results(learned_x, results).log_loss, fit_results(hand_x, results).log_loss,
                      fit_results(material_x, results).log_loss, int(records.size())};
    f.learned_search_loss = search_loss(learned_x);
    f.hand_search_loss = search_loss(hand_x);
    f.learned_search_cells = cells_error(learned_x, searched);
    f.hand_search_cells = cells_error(hand_x, searched);
    f.learned_result_cells = cells_error(learned_x, margins);
    f.hand_result_cells = cells_error(hand_x, margins);
    return f;
  }

  const RunConfig& config_;
  RunDir run_;
  int threads_;
  const std::vector<Position> gate_boards_;  // gate.boards_file's boards (none: seeded boards)
  std::vector<EvalRecord> held_out_;
};

}  // namespace

EvalTraining train_eval(const RunConfig& config, const std::vector<std::string>& shards, const LearnedEvalModel& start,
                        int generation, int64_t samples_seen, const std::string& optimizer_path, const StageLog& log,
                        int steps_override) {
  const EvalNetConfig& net = config.evalnet;
  if (learned_eval_architecture(start) != eval_net_architecture(net))
    throw std::runtime_error("the evaluation to train from is " + learned_eval_architecture(start) +
                             " but [evalnet] asks for " + eval_net_architecture(net) +
                             " (start afresh: evalnet.fresh_start in a run)");
  const auto load_start = std::chrono::steady_clock::now();
  const EvalWindow window = load_eval_window(shards, config.train.window_samples,
                                             [&](const std::string& w) { log("train: " + w); },
                                             std::max(1, config.train.threads));
  const EvalSampler sampler(window, {net.skip_gain_at_least, net.drop_contradicting, net.phase_balance});
  const int steps = steps_override > 0 ? steps_override
                    : net.epochs > 0   ? int(std::min<double>(config.train.steps,
                                                              std::ceil(net.epochs * double(sampler.kept()) /
                                                                        config.train.batch_size)))
                                       : config.train.steps;
  log("train: window of " + std::to_string(window.size()) + " positions from " + std::to_string(window.used.size()) +
      " shards (" +
      format_fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count(), 1) +
      " s to load), " + std::to_string(steps) + " steps, " + learned_eval_architecture(start) + ", target " +
      net.target + "; " + sampler.describe());
  EvalTrainer trainer(config.train, net, start, samples_seen, optimizer_path);
  EvalTraining out;
  out.stats = trainer.train(window, sampler, steps, generation, &out.metrics, std::max(1, steps / 20),
                            [&](const TrainStats& s) {
                              char line[200];
                              std::snprintf(line, sizeof line,
                                            "train: step %d/%d, loss %.5f, %.1f steps/s, %.0f%% of the time waiting "
                                            "for batches",
                                            s.steps, steps, s.step_loss, s.steps / std::max(1e-9, s.seconds),
                                            100 * s.input_wait_seconds / std::max(1e-9, s.seconds));
                              log(line);
                            });
  if (!optimizer_path.empty()) trainer.save_optimizer();
  out.model = trainer.model();
  char line[120];
  std::snprintf(line, sizeof line, "train: loss %.5f (%s)", out.stats.loss,
                net.target == "margin" ? "Huber, cells" : "win-probability squared error");
  log(line);
  return out;
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
  p.check_model = [](const std::string& model) { read_learned_eval(model); };
  return p;
}

}  // namespace mushroom::train
