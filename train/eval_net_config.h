// The [evalnet] table of a run config: the learned evaluation's size, its
// training targets and the depth of its matches (train/eval_net.h explains
// the targets). Free of LibTorch, like the rest of the run config.
#pragma once
#include "util/settings.h"

namespace mushroom::train {

struct EvalNetConfig {
  int hidden = 64;             // transformer units per perspective
  int l1 = 16, l2 = 16;        // dense layers
  // Of the search score in the target; the game's result has the rest. At
  // small data the result's noise hurt the held-out fit (BENCHMARKS.md).
  double search_weight = 1.0;
  double teacher_weight = 0;   // of the teacher's value, on samples that have one
  double scale = 6.0;          // cells: sigmoid(cells / scale) is a win probability
  int match_depth = 4;         // alpha-beta depth of gating and evaluation matches
  // Each generation trains new weights on the window instead of going on
  // from the previous candidate: a candidate that learned an early, small
  // window by heart would carry that into every later one (BENCHMARKS.md).
  bool fresh_start = false;
};
// The [evalnet] settings of a run config.
const SettingsTable<EvalNetConfig>& eval_net_settings();

}  // namespace mushroom::train
