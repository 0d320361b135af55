#include "run/match_configs.h"

namespace mushroom::run {

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<GateConfig>& gate_settings() {
  static const SettingsTable<GateConfig> table =
      SettingsTable<GateConfig>("gate")
          .flag("enabled", FIELD(enabled), "false: every candidate is promoted")
          .integer("boards", FIELD(boards), 1, 100'000,
                   "paired boards (two games each, sides swapped) against the best model")
          .text("boards_file", FIELD(boards_file),
                "draw the gate's boards from this boards file (relative to the working folder, e.g. "
                "bench/balanced-boards.txt; generation g plays the `boards` boards from g * boards on) instead of "
                "seeded ones; \"\": seeded boards. Mushroom runs only")
          .integer("sims", FIELD(sims), 1, 1'000'000, "simulations per move for both sides")
          .real("promote_score", FIELD(promote_score), 0.0, 1.0, "the candidate is promoted when its score exceeds this");
  return table;
}

const SettingsTable<EvalConfig>& eval_settings() {
  static const SettingsTable<EvalConfig> table =
      SettingsTable<EvalConfig>("eval")
          .integer("every", FIELD(every), 0, 1'000'000,
                   "play the candidate against greedy every this many generations (0: never)")
          .integer("boards", FIELD(boards), 1, 100'000, "paired boards")
          .integer("sims", FIELD(sims), 1, 1'000'000, "the candidate's simulations per move")
          .integer("positions", FIELD(positions), 1, 1'000'000,
                   "blockgame only: held-out positions graded by the exact solver instead of a greedy match");
  return table;
}

#undef FIELD

}  // namespace mushroom::run
