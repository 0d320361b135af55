#include <iostream>

#include "cli/command.h"
#include "mushroom/position_io.h"
#include "protocol/game_log.h"

namespace mushroom::cli {

int cmd_replay(int argc, char** argv) {
  cxxopts::Options opts("mushroom replay", "Print a game log (arena or official tool format) board by board.");
  opts.add_options()("log", "game log file", cxxopts::value<std::string>())(
      "final-only", "print only the final board")("h,help", "show this help");
  opts.parse_positional({"log"});
  opts.positional_help("LOG");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string path = required(args, "log");
  const GameLog log = read_game_log(path);
  const bool final_only = args.count("final-only") > 0;
  Position pos = log.start;
  if (!final_only) std::cout << "start\n" << pretty_board(pos) << "\n";
  int turn = 0;
  for (const LoggedMove& m : log.moves) {
    pos.set_to_move(m.player);
    const char* why = nullptr;
    const bool legal = pos.is_legal(m.move, &why);
    pos.apply(m.move);
    if (final_only) continue;
    std::cout << "turn " << ++turn << ": " << player_name(m.player) << " "
              << (m.move.is_pass() ? std::string("pass") : to_string(m.move)) << "  " << m.ms << " ms"
              << (legal ? "" : std::string("  (ILLEGAL: ") + why + ")") << "\n"
              << pretty_board(pos) << "\n";
  }
  if (final_only) std::cout << pretty_board(pos);
  if (log.aborted_by) std::cout << "ABORT " << player_name(*log.aborted_by) << ": " << log.abort_reason << "\n";
  else if (log.finished) std::cout << "FINISH  first " << log.score_first << "  second " << log.score_second << "\n";
  else std::cout << "(log ends without FINISH or ABORT)\n";
  return 0;
}

}  // namespace mushroom::cli
