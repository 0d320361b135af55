// The run loop's ladder stage: every [ladder] every generations, the
// candidate plays a gauntlet against the config's reference programs on the
// run's ladder (RUN/ladder/, ladder/ladder.h), at a real time control; its
// rating goes into the generation's record, the dashboard and the ladder's
// own page. Resumable like the other stages: the ladder keeps its games.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ladder/ladder.h"
#include "train/run_dir.h"
#include "util/settings.h"
#include "view/run_records.h"

namespace mushroom::train {

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
const SettingsTable<LadderStageConfig>& ladder_stage_settings();

// The reference programs of a config; throws std::invalid_argument naming a
// malformed entry or an unknown builtin agent.
std::vector<LadderProgram> ladder_references(const LadderStageConfig& config, const std::string& work_dir);

// Places run.model(generation) on the run's ladder when the generation is
// due, and returns its rating (nullopt when not due).
std::optional<view::LadderRecord> place_on_ladder(const LadderStageConfig& config, const RunDir& run, int generation,
                                                  const std::function<void(const std::string&)>& log);

}  // namespace mushroom::train
