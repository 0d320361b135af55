#include <iostream>

#include "cli/command.h"
#include "view/dashboard.h"
#include "view/game_viewer.h"
#include "view/run_plots.h"

namespace mushroom::cli {

int cmd_dashboard(int argc, char** argv) {
  cxxopts::Options opts("mushroom dashboard",
                        "Write (or refresh) DIR/dashboard.html for a run directory: the stage now running and the "
                        "time it and the whole run have left (DIR/progress.json), loss curves, score against greedy "
                        "and gating by generation, rating on the run's ladder, self-play throughput, and sample games "
                        "in the viewer; and redraw DIR/plots/run.png with gnuplot. `mushroom run` writes both after "
                        "every generation.");
  opts.add_options()("dir", "run directory", cxxopts::value<std::string>())("h,help", "show this help");
  opts.parse_positional({"dir"});
  opts.positional_help("DIR");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string dir = required(args, "dir");
  std::cout << "dashboard: wrote " << view::write_dashboard(dir) << "\n";
  // One line either way: the path is drawn before anything is printed.
  std::string plots;
  try {
    plots = "plots: wrote " + view::draw_run_plots(dir);
  } catch (const std::exception& e) {
    plots = std::string("plots: not drawn: ") + e.what();
  }
  std::cout << plots << "\n";
  return 0;
}

}  // namespace mushroom::cli
