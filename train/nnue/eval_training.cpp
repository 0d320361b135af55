#include "train/nnue/eval_training.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "train/nnue/eval_trainer.h"
#include "train/nnue/eval_window.h"
#include "util/log_level.h"
#include "util/text.h"

namespace mushroom::train {

EvalFilters sampler_filters(const EvalNetConfig& net) {
  EvalFilters f;
  f.skip_gain_at_least = net.skip_gain_at_least;
  f.drop_contradicting = net.drop_contradicting;
  f.phase_balance = net.phase_balance;
  f.focus_weight = net.focus_weight;
  f.focus_min = net.focus_min;
  f.focus_max = net.focus_max;
  return f;
}

EvalTraining train_eval(const EvalNetConfig& net, const TrainConfig& train, const std::vector<std::string>& shards,
                        const nnue::Network& start, int generation, int64_t samples_seen,
                        const std::string& optimizer_path, const std::function<void(const std::string&)>& log,
                        int steps_override,
                        const std::function<void(int steps, const nnue::Network& net)>& checkpoint) {
  if (start.shape != net.shape)
    throw std::runtime_error("the evaluation to train from is " + start.shape.to_string() +
                             " but [evalnet] asks for " + net.shape.to_string() +
                             " (start afresh: evalnet.fresh_start in a run)");
  const auto load_start = std::chrono::steady_clock::now();
  const EvalWindow window = load_eval_window(shards, train.window_samples,
                                             [&](const std::string& w) { log("train: " + w); },
                                             std::max(1, train.threads));
  const EvalSampler sampler(window, sampler_filters(net));
  const int steps = steps_override > 0 ? steps_override
                    : net.epochs > 0   ? int(std::min<double>(train.steps,
                                                              std::ceil(net.epochs * double(sampler.kept()) /
                                                                        train.batch_size)))
                                       : train.steps;
  log("train: window of " + std::to_string(window.size()) + " positions from " + std::to_string(window.used.size()) +
      " shards (" +
      format_fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count(), 1) +
      " s to load), " + std::to_string(steps) + " steps, " + start.shape.to_string() + ", target " +
      net.target + "; " + sampler.describe() +
      (net.ema_decay > 0 ? "; the candidate is the steps' running average (ema_decay " +
                               format_fixed(net.ema_decay, 5) + ")"
                         : std::string()));
  EvalTrainer trainer(train, net, start, samples_seen, optimizer_path);
  EvalTraining out;
  if (checkpoint) checkpoint(0, trainer.model());
  out.stats = trainer.train(window, sampler, steps, generation, &out.metrics, std::max(1, steps / 20),
                            [&](const TrainStats& s) {
                              // The last step's net is measured below, as the candidate (the
                              // running average when ema_decay is set).
                              if (checkpoint && s.steps < steps) checkpoint(s.steps, trainer.model());
                              if (!verbose()) return;  // the progress line shows the steps (util/progress.h)
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
  if (checkpoint) checkpoint(out.stats.steps, out.model);
  char line[120];
  std::snprintf(line, sizeof line, "train: loss %.5f (%s)", out.stats.loss,
                net.target == "margin" ? "Huber, cells" : "win-probability squared error");
  log(line);
  return out;
}

}  // namespace mushroom::train
