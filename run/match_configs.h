// The tables of a run config that set the matches the run plays: [gate]
// (a candidate against the best so far), [eval] (against a fixed opponent,
// or graded by an exact solver) and [ladder] (a gauntlet on the run's
// ladder at a real time control).
#pragma once
#include <string>

#include "util/settings.h"

namespace mushroom::run {

// [gate]
struct GateConfig {
  bool enabled = true;       // false: every candidate is promoted
  int boards = 20;           // paired boards (2 games each)
  // A boards file (arena/boards_file.h) to draw the boards from instead of
  // seeded ones ("": seeded): generation g plays its `boards` boards from
  // position g * boards on, wrapping around (mushroom runs only).
  std::string boards_file;
  int sims = 64;             // simulations per move for both sides
  double promote_score = 0.5;  // the candidate's score must exceed this
};

// [eval]
struct EvalConfig {
  int every = 1;             // evaluate against greedy every this many generations (0: never)
  int boards = 20;
  int sims = 64;
  int positions = 500;       // blockgame: evaluation grades this many held-out positions instead
};

// [ladder]
struct LadderStageConfig {
  int every = 0;               // 0: no ladder
  // The reference programs, "NAME=SPEC; NAME=SPEC" (SPEC as in `mushroom
  // ladder`); the first is the anchor, rated 0.
  std::string programs = "alphabeta=builtin:alphabeta; greedy=builtin:greedy";
  int boards = 10;             // per reference, each played twice
  // A boards file (arena/boards_file.h) whose first `boards` boards are
  // played instead of seeded ones, e.g. bench/balanced-boards.txt ("": seeded).
  std::string boards_file;
  int time_ms = 10000;         // the contest's bank
  std::string clock = "cpu";
  int parallel = 2;            // games at once (the CPU clock keeps them fair)
};
// Defined beside the stage that reads it (run/ladder_stage.cpp).
const SettingsTable<LadderStageConfig>& ladder_stage_settings();

const SettingsTable<GateConfig>& gate_settings();
const SettingsTable<EvalConfig>& eval_settings();

}  // namespace mushroom::run
