// RUN/progress.json: what a run is doing now, as its progress reporter
// sees it (util/progress.h): the stage under way, its position, the time it
// and the whole run have left. `mushroom run` rewrites it as it goes (at
// most every few seconds, atomically); the dashboard shows it, and a
// program reads it (docs/reports.md, "A run's progress").
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/progress.h"

namespace mushroom::view {

constexpr int kRunProgressVersion = 1;

struct RunProgress {
  std::string state;       // "running" (a stage under way), "between stages", "finished"
  std::string position;    // "generation 3 of 30"
  std::string stage, unit, detail;
  int64_t done = 0, total = 0;
  double elapsed = 0;                  // the stage's seconds so far
  double rate = std::nan("");          // items a second
  double stage_left = std::nan("");    // seconds
  double run_left = std::nan("");      // seconds, the stages with a length known
  std::vector<std::string> untimed;    // stages to come never timed yet (run_left leaves them out)
  double updated = 0;                  // Unix seconds when written
  std::string updated_text;            // the same, "2026-12-06 07:01:02 UTC"
  std::string line;                    // the progress line as a terminal shows it
};

// Writes DIR/progress.json from the reporter's snapshot; `finished`: the
// run has done all its generations.
void write_run_progress(const std::string& dir, const ProgressSnapshot& snapshot, bool finished);
// DIR/progress.json, or none when there is no such file; throws
// RecordError (view/run_records.h) naming it when it does not read.
std::optional<RunProgress> read_run_progress(const std::string& dir);

}  // namespace mushroom::view
