#include <iostream>

#include "cli/command.h"
#include "view/dashboard.h"
#include "view/game_viewer.h"

namespace mushroom::cli {

int cmd_view(int argc, char** argv) {
  cxxopts::Options opts("mushroom view",
                        "Turn a game log (arena, self-play or the official tool's format) into one self-contained HTML "
                        "page: the board, owners, the last move, score bars, the move list with times, step/back/play "
                        "controls and arrow keys; for self-play logs also the search's value and top candidates.");
  opts.add_options()("log", "game log file", cxxopts::value<std::string>())(
      "o,out", "HTML file to write", cxxopts::value<std::string>())(
      "title", "page title (default: the log's file name)", cxxopts::value<std::string>())(
      "first", "name of the first player", cxxopts::value<std::string>()->default_value("FIRST"))(
      "second", "name of the second player", cxxopts::value<std::string>()->default_value("SECOND"))(
      "h,help", "show this help");
  opts.parse_positional({"log"});
  opts.positional_help("LOG");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string log = required(args, "log");
  const std::string out = required(args, "out");
  view::ViewerOptions options;
  options.title = args.count("title") ? args["title"].as<std::string>() : log;
  options.first_name = args["first"].as<std::string>();
  options.second_name = args["second"].as<std::string>();
  view::write_game_viewer(log, out, options);
  std::cout << "view: wrote " << out << "\n";
  return 0;
}

}  // namespace mushroom::cli
