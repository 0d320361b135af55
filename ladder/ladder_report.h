// A ladder folder's report: ratings.txt (the text table) and ladder.html
// (the table, rating by generation for checkpoint series, and one viewer
// page per pair of programs, written to viewer/).
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
};

// Rates the folder's games and writes the report; returns the standings.
LadderStandings write_ladder_report(const std::string& dir, const LadderReportOptions& options);

// The generation number in a checkpoint's file name ("gen-0012.h5" -> 12), or -1.
int generation_of(const std::string& file_name);

}  // namespace mushroom
