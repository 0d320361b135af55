#include "run/net_pipeline.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "nn/model_file.h"
#include "run/run_dir.h"
#include "util/log_level.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {

// The learner stage of the net pipeline (see net_pipeline.h).
train::TrainStats learn_net(const RunConfig& config, const RunDir& run, int g, const std::string& init_model,
                            const StageLog& log) {
  if (fs::exists(run.model(g))) {  // trained before a resume: its metrics say how
    finish_optimizer_state(run);  // a kill came after the candidate, before its optimizer state was the run's
    return trained_stats_of(run, g);
  }
  nn::Model start;
  if (g > 1 && fs::exists(run.model(g - 1))) start = nn::load_model(run.model(g - 1).string());
  else if (!init_model.empty()) start = nn::load_model(init_model);
  else start = nn::random_model(config.net, config.seed());
  if (!(start.config == config.net))
    throw std::runtime_error("the run's previous model is a " + nn::describe(start.config) +
                             " net but the config asks for " + nn::describe(config.net));
  const train::TrainingWindow window =
      train::load_window(train::find_shards_from_generation(run.data().string(), config.train.window_first_generation),
                         config.train.window_samples, [&](const std::string& w) { log("train: " + w); }, config.game());
  log("train: window of " + std::to_string(window.size()) + " samples from " + std::to_string(window.used.size()) +
      " shards, " + std::to_string(config.train.steps) + " steps");
  train::Trainer trainer(config.train, start, begin_optimizer_state(run));
  std::string metrics;
  const train::TrainStats stats = trainer.train(window, config.train.steps, g, &metrics, std::max(1, config.train.steps / 20),
                        [&](const train::TrainStats& s) {
                          if (!verbose()) return;  // the progress line shows the steps (util/progress.h)
                          char line[200];
                          std::snprintf(line, sizeof line, "train: step %d/%d, loss %.4f, gradient norm %.3g, %.1f steps/s",
                                        s.steps, config.train.steps, s.step_loss, s.grad_norm,
                                        s.steps / std::max(1e-9, s.seconds));
                          log(line);
                        });
  write_file_atomic(run.train_metrics(g).string(), metrics);
  write_trained_stats(run, g, stats);
  trainer.save_optimizer();
  // The candidate goes last: its presence marks the stage as finished.
  nn::save_model(trainer.model({{"model_id", generation_name(g)},
                                {"generation", std::to_string(g)},
                                {"config_hash", config.hash},
                                {"train_steps", std::to_string(stats.steps)}}),
                 run.model(g).string());
  finish_optimizer_state(run);
  char line[200];
  std::snprintf(line, sizeof line, "train: loss %.4f (policy %.4f, value %.4f, score %.4f, ownership %.4f)", stats.loss,
                stats.policy, stats.value, stats.score, stats.ownership);
  log(line);
  if (config.train.grad_clip > 0) {
    std::snprintf(line, sizeof line, "train: %d of %d steps had their gradient clipped to norm %g", stats.clipped_steps,
                  stats.steps, config.train.grad_clip);
    log(line);
  }
  return stats;
}

}  // namespace

// The conv net of the run's game, through its learning game's registration.
Pipeline net_pipeline(const RunConfig& config) {
  const LearningGame& game = learning_game(config.game());
  Pipeline p;
  p.model_extension = ".h5";
  p.schema = game.schema->game;
  p.bootstrap_name = game.bootstrap_name(config);
  p.bootstrap_id = game.bootstrap_id(config);
  // Games in flight that go on from one generation (or actor chunk) to the
  // next, for as long as this process runs (selfplay.carry_games).
  auto carry = selfplay::make_game_carry();
  p.selfplay = [&game, carry](selfplay::SelfplayJob& job, const std::string& model) {
    if (!model.empty()) job.model = std::make_shared<nn::Model>(nn::load_model(model));
    if (job.config.carry_games) job.carry = carry;
    return game.selfplay(job);
  };
  p.learn = [&config](const RunDir& run, int g, const std::string& init_model, const StageLog& log) {
    return learn_net(config, run, g, init_model, log);
  };
  p.make_judge = [&config, &game](const RunDir&, int threads) { return game.make_judge(config, threads); };
  p.check_model = [&config](const std::string& model) {
    const nn::Model m = nn::load_model(model);
    if (!(m.config == config.net))
      throw std::runtime_error(model + " is a " + nn::describe(m.config) + " net but the config asks for " +
                               nn::describe(config.net));
  };
  return p;
}

}  // namespace mushroom::run
