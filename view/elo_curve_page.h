// The page of the shipped evaluations' Elo curve (`mushroom elo-curve`): the
// chained Elo of each shipped evaluation with its 95% interval, as a chart
// and a table with each match's counts, command and history. Self-contained
// HTML with Chart.js inlined, like the ladder's page; the caller turns the
// curve (arena/elo_curve.h) into these plain rows.
#pragma once
#include <string>
#include <vector>

namespace mushroom::view {

struct EloCurvePageRow {
  std::string name, model, date, commit;
  double elo = 0, low = 0, high = 0;  // chained, 95%
  bool anchor = false;
  // Its match against the row before (empty for the anchor).
  std::string against, sprt, games, first_wdl, second_wdl, pentanomial, match_elo, command;
  std::string history, history_href;  // the history's file; the link from the page (with its #anchor)
};

struct EloCurvePage {
  std::string title;
  std::string method;  // how the points are chained
  std::string source;  // the record the page was drawn from
  std::vector<EloCurvePageRow> rows;
};

std::string elo_curve_page_html(const EloCurvePage& page);

}  // namespace mushroom::view
