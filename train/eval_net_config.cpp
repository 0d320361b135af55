#include "train/eval_net_config.h"

namespace mushroom::train {

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<EvalNetConfig>& eval_net_settings() {
  static const SettingsTable<EvalNetConfig> table =
      SettingsTable<EvalNetConfig>("evalnet")
          .integer("hidden", FIELD(hidden), 16, 512, "transformer units per perspective (a multiple of 16)")
          .integer("l1", FIELD(l1), 1, 64, "units of the first dense layer")
          .integer("l2", FIELD(l2), 1, 64, "units of the second dense layer")
          .real("search_weight", FIELD(search_weight), 0.0, 1.0,
                "weight of the search score in the target; the game's result has the rest")
          .real("teacher_weight", FIELD(teacher_weight), 0.0, 1.0,
                "weight of the teacher net's value in the target, on samples that have one")
          .real("scale", FIELD(scale), 0.5, 100.0, "cells: sigmoid(cells / scale) is read as a win probability")
          .integer("match_depth", FIELD(match_depth), 1, 12, "alpha-beta depth of gating and evaluation matches")
          .flag("fresh_start", FIELD(fresh_start),
                "each generation trains new weights (and a new optimizer) on the window, instead of going on from the "
                "previous candidate");
  return table;
}

#undef FIELD

}  // namespace mushroom::train
