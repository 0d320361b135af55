// Training, gating, evaluation and distillation settings (the [train],
// [gate], [eval] and [distill] tables of a run config). The member
// initializers are the defaults; the *_settings() tables declare each key's
// range and help (configs/defaults.toml lists them all).
#pragma once
#include <cstdint>
#include <string>

#include "util/settings.h"

namespace mushroom::train {

// Weights of the loss terms (train/loss.h).
struct LossWeights {
  double policy = 1.0;
  double value = 1.0;
  double score = 0.5;
  double ownership = 0.5;
};

struct TrainConfig {
  std::string device = "cpu";
  int threads = 0;               // LibTorch intra-op threads; 0: LibTorch's default
  int batch_size = 256;
  int steps = 400;               // optimizer steps per generation
  std::string optimizer = "sgd"; // sgd (with momentum) | adam
  double learning_rate = 0.02;
  double momentum = 0.9;
  // Adam's epsilon. The learned evaluation's gradients into its hidden
  // layers are about 1e-6: at 1e-8 Adam turns them into full-rate steps of
  // noise, which saturate the clipped layers within a few hundred steps
  // (BENCHMARKS.md); its configs use 1e-5.
  double adam_eps = 1e-8;
  double weight_decay = 1e-4;
  std::string lr_schedule = "constant";  // constant | cosine (within a generation's steps)
  // The first this many steps of each generation ramp the rate up linearly
  // from near 0 (0: none): Adam's first steps on a fresh net are full-size
  // in every weight, and a net can die there (all units dead, the value
  // stuck at ln 2); the CI's BLOCKGAME check once did about one run in six.
  int warmup_steps = 0;
  // Each step's gradient is scaled down to at most this global L2 norm (0:
  // never). Without normalization layers a net can die mid-run: one batch's
  // outsized gradient moves every weight by about three times Adam's rate
  // at once and for several steps after, which can silence every unit of a
  // layer for good (the CI's BLOCKGAME check did so in its fifth generation).
  double grad_clip = 0.0;
  // From this generation on (0: never) the learning rate is multiplied by
  // lr_decay_factor: a late drop lets the net settle below Adam's noise floor.
  int lr_decay_generation = 0;
  double lr_decay_factor = 0.1;
  int window_samples = 250000;   // train on the newest this many samples
  // The window draws only on the self-play of this generation and later
  // (data/gen-NNNN folders; 0: every generation): the data a run made
  // before a change of its labels (evalplay.label_depth) is left out.
  int window_first_generation = 0;
  LossWeights loss;
  uint64_t seed = 1;
};

// `mushroom distill`: a student of the [net] size learns from a teacher
// model on self-play positions. Each target mixes the teacher's output
// (weight teacher_*) with what the shard recorded (the rest).
struct DistillConfig {
  double teacher_policy = 0.7;  // vs the recorded MCTS visit distribution
  double teacher_value = 0.7;   // vs the game's outcome, margin and ownership
  std::string data;             // directory of shards ("": --data is required)
};

const SettingsTable<TrainConfig>& train_settings();
const SettingsTable<DistillConfig>& distill_settings();

}  // namespace mushroom::train
