#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "mushroom/playout_positions.h"
#include "mushroom/position_io.h"
#include "protocol/game_log.h"
#include "util/text.h"

namespace mushroom::cli {

namespace {

// Every position of each logged game with min..max mushrooms left (the side
// to move and a pass just played included), one file each in dir, named
// after the log and the ply: LOGNAME-ply-NN.txt. Returns the count.
int positions_from_logs(const std::vector<std::string>& logs, int min_left, int max_left, const std::string& dir) {
  std::filesystem::create_directories(dir);
  int written = 0;
  for (const std::string& path : logs) {
    const GameLog log = read_game_log(path);
    Position pos = log.start;
    const std::string stem = std::filesystem::path(path).stem().string();
    for (size_t i = 0; i < log.moves.size(); ++i) {
      check_logged_move(pos, log.moves[i], i);  // gives the logged mover the move; names an illegal one
      const int left = pos.mushrooms_left();
      if (!pos.game_over() && left >= min_left && left <= max_left) {
        char name[32];
        std::snprintf(name, sizeof(name), "-ply-%02zu.txt", i);
        write_file_atomic((std::filesystem::path(dir) / (stem + name)).string(), format_position(pos, true));
        ++written;
      }
      pos.apply(log.moves[i].move);
    }
  }
  return written;
}

}  // namespace

int cmd_positions(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom positions",
      "Write a position set. From seeded playouts (random and greedy moves mixed, every stage of the game): "
      "--out FILE, in the format 'mushroom bench movegen' reads. From game logs (the official format, e.g. an "
      "arena's --log-dir): --from-logs LOG... --dir DIR writes every position with --min-left..--max-left "
      "mushrooms left, one position file each (mushroom/position_io.h: owners, side to move, a pass just "
      "played), as 'mushroom bench endgame' and 'mushroom solve-endgame' read.");
  opts.add_options()("count", "playouts: number of positions", cxxopts::value<int>()->default_value("1000"))(
      "seed", "playouts: playout seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "out", "playouts: output file", cxxopts::value<std::string>())(
      "from-logs", "game logs to take positions from (repeatable; or several after the option's first)",
      cxxopts::value<std::vector<std::string>>())(
      "min-left", "logs: fewest mushrooms left", cxxopts::value<int>()->default_value("0"))(
      "max-left", "logs: most mushrooms left", cxxopts::value<int>()->default_value("170"))(
      "dir", "logs: folder for the position files", cxxopts::value<std::string>())("h,help", "show this help");
  opts.parse_positional({"from-logs"});
  opts.positional_help("[LOG...]");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  if (args.count("from-logs")) {
    const int min_left = args["min-left"].as<int>(), max_left = args["max-left"].as<int>();
    if (min_left < 0 || max_left > kCells || min_left > max_left)
      throw std::invalid_argument("--min-left and --max-left must satisfy 0 <= min <= max <= 170");
    if (args.count("out")) throw std::invalid_argument("--out is for playouts; with --from-logs give --dir");
    const int written =
        positions_from_logs(args["from-logs"].as<std::vector<std::string>>(), min_left, max_left, required(args, "dir"));
    std::cout << "wrote " << written << " positions to " << args["dir"].as<std::string>() << "\n";
    return 0;
  }
  if (args.count("dir")) throw std::invalid_argument("--dir is for --from-logs; playouts write --out FILE");
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
