// runs/NAME/dashboard.html: a run at a glance, self-contained (charts drawn
// by Chart.js inlined in the page, no network): the stage under way and the
// time it and the whole run have left (runs/NAME/progress.json,
// view/run_progress.h), loss curves, strength against greedy and gating
// results by generation, self-play throughput, and links to sample
// self-play games rendered with the game viewer (runs/NAME/games/*.html).
#pragma once
#include <string>

namespace mushroom::view {

struct DashboardOptions {
  int games_per_generation = 2;  // sample games linked from each listed generation
  int generations_with_games = 3;  // the first generation with logs and the newest ones
};

// Writes <dir>/dashboard.html (atomically) and the linked game pages;
// returns the dashboard's path. A sample log that cannot be read is listed
// with its error, never fatal.
std::string write_dashboard(const std::string& dir, const DashboardOptions& options = {});

}  // namespace mushroom::view
