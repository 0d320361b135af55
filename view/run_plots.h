// Plots of a run directory for a person to glance at: loss curves against
// samples seen, and strength and self-play speed by generation. Data tables
// (TSV) are written beside the PNG; gnuplot (Debian's gnuplot-nox) draws it.
#pragma once
#include <string>

namespace mushroom::view {

// Writes <dir>/plots/{training.tsv, generations.tsv, plots.gp, run.png} and
// returns the PNG's path. Throws when gnuplot is missing or fails.
std::string draw_run_plots(const std::string& dir);

}  // namespace mushroom::view
