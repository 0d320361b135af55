// One training of the learned evaluation: from `start`, on the newest
// train.window_samples positions of `shards`, by the [evalnet] and [train]
// settings. The learner stage of a run's "eval" pipeline (run/eval_pipeline.h)
// and `mushroom train` for run.model = "eval" both call it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "train/nnue/eval_net_config.h"
#include "train/nnue/eval_window.h"
#include "train/train_config.h"
#include "train/trainer.h"

namespace mushroom::train {

struct EvalTraining {
  nnue::Network model;
  TrainStats stats;
  std::string metrics;  // the training lines (view::TrainLine JSON)
};

// Which of the window's positions batches draw, as [evalnet] says: the
// filters, the phase balance and the focus band.
EvalFilters sampler_filters(const EvalNetConfig& net);

// Steps: steps_override when positive, else evalnet.epochs passes over the
// kept positions (at most train.steps), else train.steps. The optimizer's
// state is read from and saved to optimizer_path ("": none). Throws, naming
// both shapes, when start is not the shape [evalnet] asks for. `log` gets
// the progress lines. `checkpoint`, when given, gets the net before the
// first step (0), after step 1 and every max(1, steps / 20) steps from there
// (the metrics lines' steps; the raw weights under ema_decay), and last the
// candidate it returns (a held-out curve). Its time counts in the steps/s.
EvalTraining train_eval(const EvalNetConfig& net, const TrainConfig& train, const std::vector<std::string>& shards,
                        const nnue::Network& start, int generation, int64_t samples_seen,
                        const std::string& optimizer_path, const std::function<void(const std::string&)>& log,
                        int steps_override = 0,
                        const std::function<void(int steps, const nnue::Network& net)>& checkpoint = nullptr);

}  // namespace mushroom::train
