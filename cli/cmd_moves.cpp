#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "mushroom/movegen.h"
#include "mushroom/perft.h"
#include "mushroom/position_io.h"

namespace mushroom::cli {

int cmd_moves(int argc, char** argv) {
  cxxopts::Options opts("mushroom moves", "Print every legal move of a position, one 'r1 c1 r2 c2' per line, "
                                          "sorted ascending. The pass is not printed.");
  opts.add_options()("position", "position file (10 lines of 17 digits, optional owner block)",
                     cxxopts::value<std::string>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const Position pos = load_position_file(required(args, "position"));
  MoveList list;
  generate_moves(pos, list);
  std::vector<Move> moves(list.begin(), list.end());
  std::sort(moves.begin(), moves.end());
  std::string out;
  for (const Move& m : moves) out += to_string(m) + "\n";
  std::cout << out << std::flush;
  return 0;
}

}  // namespace mushroom::cli
