// The training loop: SGD or Adam on batches from the window, with the
// optimizer's state kept in a checkpoint between generations, and metrics
// written as JSON lines.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "nn/model.h"
#include "train/train_config.h"
#include "train/train_stats.h"
#include "train/training_data.h"

namespace mushroom::train {

// The learning rate a generation's training starts from (before the
// within-generation schedule): train.learning_rate, times
// train.lr_decay_factor from generation train.lr_decay_generation on.
double learning_rate_for(const TrainConfig& config, int generation);
// The rate at step `step` (from 0) of `steps` within a generation:
// learning_rate_for, shaped by train.lr_schedule (constant, or a cosine down
// to a tenth), times (step + 1) / (warmup_steps + 1) while step < warmup_steps.
double step_learning_rate(const TrainConfig& config, int generation, int step, int steps);

// A training step done, with its loss, for the process's progress reporter
// (util/progress.h): both trainers call it after every step.
void report_step(const TrainStats& stats);

class Trainer {
 public:
  // Continues from `start`; the optimizer state is restored from
  // optimizer_path when that file exists (and fits), else starts fresh.
  Trainer(const TrainConfig& config, const nn::Model& start, std::string optimizer_path);
  ~Trainer();

  // Runs `steps` optimizer steps. Every `log_every` steps a JSON line goes to
  // metrics (if given): generation, step, samples_seen, lr and the loss terms.
  // retarget, when given, rewrites each batch's targets (on the training
  // device) before the loss: distillation mixes in a teacher's outputs.
  TrainStats train(const TrainingWindow& window, int steps, int generation, std::string* metrics, int log_every,
                   const std::function<void(const TrainStats&)>& progress = nullptr,
                   const std::function<void(Batch&)>& retarget = nullptr);

  // The current weights, with provenance metadata added.
  nn::Model model(const std::map<std::string, std::string>& metadata) const;
  // Saves the optimizer state atomically to optimizer_path.
  void save_optimizer() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mushroom::train
