// Training the learned evaluation (train/nnue/eval_net.h) on the packed window
// (train/nnue/eval_window.h): the optimizer of [train] (SGD or Adam, with its
// state carried between generations like the conv net's), batches of
// train.batch_size drawn by the [evalnet] filters under random board
// symmetries, and every weight clipped into the integer runtime's ranges
// after each step. The next batch is made on a second thread while the
// step runs.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "train/nnue/eval_net.h"
#include "train/nnue/eval_window.h"
#include "train/train_config.h"
#include "train/trainer.h"

namespace mushroom::train {

class EvalTrainer {
 public:
  // samples_seen: over the model's life before this trainer (for the metrics).
  EvalTrainer(const TrainConfig& train, const EvalNetConfig& net, const nnue::Network& start, int64_t samples_seen,
              std::string optimizer_path);
  ~EvalTrainer();

  // As Trainer::train: `steps` optimizer steps, a JSON line (view::TrainLine,
  // the loss in its loss and value fields) every log_every steps.
  TrainStats train(const EvalWindow& window, const EvalSampler& sampler, int steps, int generation,
                   std::string* metrics, int log_every, const std::function<void(const TrainStats&)>& progress = nullptr);
  // The mean loss over records[indices] (no training): held-out checks.
  double loss_on(const std::vector<EvalRecord>& records, const std::vector<int>& indices);

  nnue::Network model() const;
  void save_optimizer() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mushroom::train
