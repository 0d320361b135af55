// The [evalnet] table of a run config: the learned evaluation's size, its
// training targets and the depth of its matches (train/nnue/eval_net.h explains
// the targets). Free of LibTorch, like the rest of the run config.
#pragma once
#include <string>

#include "nnue/shape.h"
#include "util/settings.h"

namespace mushroom::train {

struct EvalNetConfig {
  // The net's size, output buckets (phase bands and seats) and mobility
  // inputs (nnue/network.h): the keys hidden, l1, l2, phase_buckets,
  // seat_buckets and mobility.
  nnue::Shape shape;
  // Of the search score in the target; the game's result has the rest. At
  // small data the result's noise hurt the held-out fit (BENCHMARKS.md).
  double search_weight = 1.0;
  double teacher_weight = 0;   // of the teacher's value, on samples that have one
  double scale = 6.0;          // cells: sigmoid(cells / scale) is a win probability
  // What the output learns: "probability", the squared error of
  // sigmoid(output / scale) against the targets' win probabilities; or
  // "margin", the Huber loss of the output against the targets in cells.
  std::string target = "probability";
  double huber_delta = 4.0;    // cells: the margin loss is quadratic within, linear beyond
  // Sample filters and weights, applied when batches are drawn:
  int skip_gain_at_least = 0;  // cells: leave out positions with an immediate gain this big waiting (0: keep all)
  int drop_contradicting = 0;  // cells: leave out positions whose search score says this far ahead
                               // (or behind) while the game was lost (won); 0: keep all
  bool phase_balance = false;  // draw each phase band (nnue/network.h) equally often
  // Positions at focus_min..focus_max mushrooms left drawn focus_weight
  // times as often as the rest (1: off), where games are decided.
  double focus_weight = 1;
  int focus_min = 95, focus_max = 130;
  // Passes over the window's kept positions per generation, up to
  // train.steps (0: train.steps): a window that grows from one generation
  // to tens of millions of positions wants steps that grow with it.
  double epochs = 0;
  int match_depth = 4;         // alpha-beta depth of gating and evaluation matches
  // Each generation trains new weights on the window instead of going on
  // from the previous candidate: a candidate that learned an early, small
  // window by heart would carry that into every later one (BENCHMARKS.md).
  bool fresh_start = false;
  // The candidate is the exponential moving average of the weights after
  // each step, with this decay (ramped up over the first steps, as
  // min(decay, (1 + step) / (10 + step))), instead of the last step's
  // weights: one trajectory's average, so less of it is the last batches'
  // noise. 0: the last step's weights.
  double ema_decay = 0;
};
// The [evalnet] settings of a run config.
const SettingsTable<EvalNetConfig>& eval_net_settings();

}  // namespace mushroom::train
