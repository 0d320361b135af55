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
#include "run/match_configs.h"
#include "run/run_dir.h"
#include "util/settings.h"
#include "view/run_records.h"

namespace mushroom::run {

// The reference programs of a config; throws std::invalid_argument naming a
// malformed entry or an unknown builtin agent.
std::vector<LadderProgram> ladder_references(const LadderStageConfig& config, const std::string& work_dir);

// The references of a config, checked against the run's ladder folder as
// place_on_ladder would (a reference known there under another command or
// as another build is refused by name): called when a run starts, so that
// a resumed run does not find out after a generation's self-play and
// training. Throws std::invalid_argument.
void check_ladder_references(const LadderStageConfig& config, const RunDir& run);

// Places run.model(generation) on the run's ladder when the generation is
// due, and returns its rating (nullopt when not due). with_probcut: the
// candidate plays with its Multi-ProbCut fit (run/fit_stage.h's
// probcut_fit_path), as the contest bot would.
std::optional<view::LadderRecord> place_on_ladder(const LadderStageConfig& config, const RunDir& run, int generation,
                                                  const std::function<void(const std::string&)>& log,
                                                  bool with_probcut);

// The program spec that plays generation's candidate on the ladder.
std::string ladder_candidate_program(const RunDir& run, int generation, bool with_probcut);

}  // namespace mushroom::run
