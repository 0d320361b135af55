// A ladder folder's report: ratings.txt (the text table), ratings.json (the
// same for programs, docs/reports.md) and ladder.html (the table, rating by
// generation for checkpoint series, and one viewer page per pair of
// programs, written to viewer/).
#pragma once
#include <string>
#include <vector>

#include "ladder/ladder.h"

namespace mushroom {

// Checkpoints of one run: program names with their generation numbers.
struct LadderSeriesSpec {
  std::string label;
  std::vector<std::pair<std::string, int>> members;
};

struct LadderReportOptions {
  std::string title = "mushroom ladder";
  std::string anchor;  // empty: the first program of programs.txt
  std::vector<LadderSeriesSpec> series;
  std::string json_path;  // ratings.json also written here (--json); "" for none
};

// ratings.json's schema version (docs/reports.md, "The ladder's ratings").
constexpr int kLadderRatingsVersion = 1;
// Writes the standings of the ladder folder `dir` as ratings.json's schema
// to `path` (atomically).
void write_ratings_json(const std::string& path, const std::string& dir, const LadderStandings& standings);

// Rates the folder's games and writes the report; returns the standings.
LadderStandings write_ladder_report(const std::string& dir, const LadderReportOptions& options);

// The generation number in a checkpoint's file name ("gen-0012.h5" -> 12), or -1.
int generation_of(const std::string& file_name);

}  // namespace mushroom
