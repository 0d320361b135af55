// What a training stage did: its steps, samples seen, rate and losses.
// Without LibTorch, for the readers of a run's records (run/train_summary.h).
#pragma once
#include <cstdint>

namespace mushroom::train {

struct TrainStats {
  int steps = 0;
  int64_t samples_seen = 0;  // over the model's whole life
  double seconds = 0;
  double learning_rate = 0;
  double step_loss = 0;      // the latest step's total loss (progress lines)
  double grad_norm = 0;      // the gradient norm before clipping, of the latest logged or clipped step
  int clipped_steps = 0;     // steps whose gradient train.grad_clip scaled down
  // Means over the last 10% of the steps.
  double loss = 0, policy = 0, value = 0, score = 0, ownership = 0, policy_entropy = 0;
  // Seconds the optimizer waited for its next batch (a loader that makes
  // batches beside the steps; 0 where batches are made in line).
  double input_wait_seconds = 0;
};

}  // namespace mushroom::train
