// A ladder's page (`mushroom ladder`, and a run's ladder): the rating table,
// rating by generation for checkpoint series, and links to sample games in
// the viewer. Self-contained HTML with Chart.js inlined, like the dashboard. The
// caller turns its standings into these plain rows, so the view layer needs
// nothing from the arena's.
#pragma once
#include <string>
#include <vector>

namespace mushroom::view {

struct LadderPageRow {
  std::string name;
  bool rated = false, anchor = false;
  double elo = 0, low = 0, high = 0;
  int games = 0;
  double score = 0;  // points per game
  std::string first_wdl, second_wdl;
  int forfeits = 0;
};

// Checkpoints of one run, by generation.
struct LadderSeries {
  std::string label;
  std::vector<double> generation, elo, low, high;
};

// Two programs' games against each other, from the better ranked one's side.
struct LadderPairRow {
  std::string a, b;
  int wins = 0, draws = 0, losses = 0;
  double score = 0, los = 0.5;  // a's points per game; the likelihood that a is stronger
};

struct LadderGameLink {
  std::string label, href;  // href relative to the page
};

struct LadderPage {
  std::string title;
  std::string settings;  // e.g. "time bank 10000 ms, cpu clock, 40 games a pair"
  std::string summary;   // the fit's line: games, anchor, first-move advantage
  std::vector<LadderPageRow> rows;
  std::vector<LadderSeries> series;
  std::vector<LadderPairRow> head_to_head;
  std::vector<LadderGameLink> games;
  std::string games_csv_href = "games.csv";
};

std::string ladder_page_html(const LadderPage& page);

}  // namespace mushroom::view
