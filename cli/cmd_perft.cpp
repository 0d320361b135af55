#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "mushroom/movegen.h"
#include "mushroom/perft.h"
#include "mushroom/position_io.h"

namespace mushroom::cli {

int cmd_perft(int argc, char** argv) {
  cxxopts::Options opts("mushroom perft",
                        "Count the move sequences of exactly D plies from a position, first player to move and "
                        "no previous pass. The pass counts as a move; a sequence that ends the game (two passes "
                        "in a row) before ply D counts 0.");
  opts.add_options()("position", "position file", cxxopts::value<std::string>())(
      "depth", "plies D (0..8)", cxxopts::value<int>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  Position pos = load_position_file(required(args, "position"));
  if (!args.count("depth")) throw std::invalid_argument("missing required option --depth");
  const int depth = args["depth"].as<int>();
  if (depth < 0 || depth > 8) throw std::invalid_argument("--depth must be in 0..8, got " + std::to_string(depth));
  std::cout << perft(pos, depth) << std::endl;
  return 0;
}

}  // namespace mushroom::cli
