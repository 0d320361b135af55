// Helpers of the learned evaluation's training tests (train/nnue/ and the
// run's eval pipeline tests in run/).
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "selfplay/eval_selfplay.h"
#include "train/nnue/eval_net.h"
#include "train/nnue/eval_window.h"
#include "train/training_data.h"
#include "util/rng.h"

namespace mushroom::train {

// Starting weights pushed well away from the hand evaluation, so the net's
// part of the output is large.
inline nnue::Network lively_model(uint64_t seed, int phase_buckets = 1, int seat_buckets = 1, bool mobility = false) {
  EvalNetConfig c;
  c.shape = {32, 8, 8, phase_buckets, seat_buckets, mobility};
  nnue::Network m = initial_eval_model(c, seed);
  Rng rng(seed + 1);
  for (float& w : m.ft_weight) w *= 4;
  for (float& w : m.out_weight) w = float(1.5 * (2 * rng.uniform_double() - 1));
  return m;
}

// Alpha-beta self-play at depth 2 into dir, read back as a packed window.
inline EvalWindow selfplay_window(const std::filesystem::path& dir, int games) {
  std::filesystem::remove_all(dir);
  selfplay::EvalSelfplayJob job;
  job.job.config.workers = 2;
  job.job.config.random_opening_plies = 10;
  job.job.out_dir = dir.string();
  job.job.games = games;
  job.eval.label_depth = 2;
  selfplay::run_eval_selfplay(job);
  return load_eval_window(find_shards(dir.string()), 100000, [](const std::string& w) { ADD_FAILURE() << w; }, 2);
}

}  // namespace mushroom::train
