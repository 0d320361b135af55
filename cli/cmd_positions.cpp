#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "mushroom/position_io.h"
#include "mushroom/reference_movegen.h"
#include "mushroom/alphabeta.h"
#include "search/mcts.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/mushroom_game.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_positions(int argc, char** argv) {
  cxxopts::Options opts("mushroom positions",
                        "Write a position set from seeded playouts (random and greedy moves mixed, every stage "
                        "of the game), in the format 'mushroom bench movegen' reads.");
  opts.add_options()("count", "number of positions", cxxopts::value<int>()->default_value("1000"))(
      "seed", "playout seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "out", "output file", cxxopts::value<std::string>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const int count = args["count"].as<int>();
  if (count < 1) throw std::invalid_argument("--count must be at least 1");
  std::string text;
  for (const Position& p : playout_positions(count, args["seed"].as<uint64_t>())) {
    if (!text.empty()) text += "\n";
    text += format_position(p, false).substr(0, size_t(kRows) * (kCols + 1));
  }
  write_file_atomic(required(args, "out"), text);
  return 0;
}

}  // namespace mushroom::cli
