#include "train/nnue/eval_net_config.h"

namespace mushroom::train {

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<EvalNetConfig>& eval_net_settings() {
  static const SettingsTable<EvalNetConfig> table =
      SettingsTable<EvalNetConfig>("evalnet")
          .integer("hidden", FIELD(shape.hidden), 16, 512, "transformer units per perspective (a multiple of 16)")
          .integer("l1", FIELD(shape.l1), 1, 64, "units of the first dense layer")
          .integer("l2", FIELD(shape.l2), 1, 64, "units of the second dense layer")
          .real("search_weight", FIELD(search_weight), 0.0, 1.0,
                "weight of the search score in the target; the game's result has the rest")
          .real("teacher_weight", FIELD(teacher_weight), 0.0, 1.0,
                "weight of the teacher net's value in the target, on samples that have one")
          .real("scale", FIELD(scale), 0.5, 100.0, "cells: sigmoid(cells / scale) is read as a win probability")
          .choice("target", FIELD(target), {"probability", "margin"},
                  "what the output learns: \"probability\" (squared error of sigmoid(output / scale) against the "
                  "targets' win probabilities) or \"margin\" (Huber loss against the targets in cells)")
          .real("huber_delta", FIELD(huber_delta), 0.1, 100.0,
                "cells: the margin target's loss is quadratic within this error, linear beyond")
          .integer("phase_buckets", FIELD(shape.phase_buckets), 1, 8,
                   "dense stacks by game phase: equal bands of the first 112 mushrooms taken, the last band holding the rest "
                   "(1: one stack)")
          .integer("seat_buckets", FIELD(shape.seat_buckets), 1, 2,
                   "dense stacks by seat: 2 gives the side that moved first and the other their own (1: shared)")
          .flag("mobility", FIELD(shape.mobility),
                "the dense layers also read the number of legal rectangles (a thermometer of 8 steps and its parity; "
                "nnue/network.h); the search then scans every leaf's rectangles, with no floor cut-off")
          .integer("skip_gain_at_least", FIELD(skip_gain_at_least), 0, 170,
                   "cells: positions where the side to move has an immediate margin gain this big waiting are left "
                   "out of training (0: none are)")
          .integer("drop_contradicting", FIELD(drop_contradicting), 0, 170,
                   "cells: positions whose search score is this far ahead while the game was lost, or this far behind "
                   "while it was won, are left out (0: none are)")
          .flag("phase_balance", FIELD(phase_balance),
                "batches draw each phase band (four bands of the mushrooms taken, as phase_buckets = 4) equally often, "
                "instead of as the games "
                "made them")
          .real("focus_weight", FIELD(focus_weight), 0.05, 20.0,
                "batches draw the positions at focus_min..focus_max mushrooms left this many times as often as the "
                "others (of their phase band, with phase_balance), where games between strong bots are decided "
                "(1: as the games made them)")
          .integer("focus_min", FIELD(focus_min), 0, 170, "mushrooms left: the focus band's lower end (inclusive)")
          .integer("focus_max", FIELD(focus_max), 0, 170, "mushrooms left: the focus band's upper end (inclusive)")
          .real("epochs", FIELD(epochs), 0.0, 1000.0,
                "passes over the window's kept positions per generation, up to train.steps: the steps are "
                "min(train.steps, epochs * kept / train.batch_size) (0: train.steps)")
          .integer("match_depth", FIELD(match_depth), 1, 12, "alpha-beta depth of gating and evaluation matches")
          .flag("fresh_start", FIELD(fresh_start),
                "each generation trains new weights (and a new optimizer) on the window, instead of going on from the "
                "previous candidate")
          .real("ema_decay", FIELD(ema_decay), 0.0, 0.99999,
                "the candidate is the exponential moving average of the weights over the generation's steps with this "
                "decay (ramped up as min(decay, (1 + step) / (10 + step))), not the last step's weights (0: the last "
                "step's)");
  return table;
}

#undef FIELD

}  // namespace mushroom::train
