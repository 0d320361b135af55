#include <iostream>

#include "cli/command.h"
#include "view/dashboard.h"
#include "view/game_viewer.h"

namespace mushroom::cli {

int cmd_dashboard(int argc, char** argv) {
  cxxopts::Options opts("mushroom dashboard",
                        "Write (or refresh) DIR/dashboard.html for a run directory: loss curves, score against greedy "
                        "and gating by generation, self-play throughput, and sample games in the viewer. `mushroom "
                        "run` writes it after every generation.");
  opts.add_options()("dir", "run directory", cxxopts::value<std::string>())("h,help", "show this help");
  opts.parse_positional({"dir"});
  opts.positional_help("DIR");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  std::cout << "dashboard: wrote " << view::write_dashboard(required(args, "dir")) << "\n";
  return 0;
}

}  // namespace mushroom::cli
