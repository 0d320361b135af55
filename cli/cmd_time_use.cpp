#include <filesystem>
#include <iostream>

#include "arena/games_file.h"
#include "arena/time_use.h"
#include "cli/command.h"
#include "util/text.h"

namespace mushroom::cli {

namespace {

namespace fs = std::filesystem;


// A match or ladder folder: each game of its games.csv, under its programs' names.
void add_folder(TimeUseTable& table, const std::string& dir) {
  const fs::path games = fs::path(dir) / "games.csv";
  if (!fs::exists(games))
    throw std::invalid_argument(dir + " has no games.csv: give an arena's --log-dir, a ladder's folder, or game logs");
  for (const GameRecord& game : read_games_file(games.string(), false)) {
    if (game.log.empty()) {  // a game forfeited before it started has no log
      table.add_game(GameLog{}, game.first, game.second, games.string());
      continue;
    }
    const std::string log = (fs::path(dir) / game.log).string();
    table.add_game(read_game_log(log), game.first, game.second, log);
  }
}

// One log: its programs' names from the games.csv beside it, else its seats.
void add_log(TimeUseTable& table, const std::string& path) {
  const std::optional<GameRecord> record = game_record_of_log(path);
  table.add_game(read_game_log(path), record ? record->first : "first", record ? record->second : "second", path);
}

}  // namespace

int cmd_time_use(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom time-use",
      "Where each program's clock went: reads the time column of game logs (the arena's and the ladder's, the "
      "official tool's) and prints, for each program, the bank used a game and the time of its moves by how many "
      "mushrooms were left before them. A folder is read through its games.csv, under the programs' names; a log "
      "alone under its seats (first, second), unless a games.csv beside it names them. Games that ended in a forfeit "
      "are left out and counted.");
  opts.add_options()("paths", "match or ladder folders (--log-dir), or game logs",
                     cxxopts::value<std::vector<std::string>>())(
      "band", "mushrooms left a row spans", cxxopts::value<int>()->default_value("10"))(
      "time-ms", "the bank a game, for the time left unused (the judge's: 10000)",
      cxxopts::value<double>()->default_value("10000"))(
      "csv", "also write the rows here as CSV (program,left_low,left_high,moves,mean_ms,share)",
      cxxopts::value<std::string>())("h,help", "show this help");
  opts.parse_positional({"paths"});
  opts.positional_help("DIR|LOG...");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  if (!args.count("paths")) throw std::invalid_argument("mushroom time-use: give a match folder or game logs");
  const double bank_ms = args["time-ms"].as<double>();
  if (!(bank_ms > 0)) throw std::invalid_argument("--time-ms " + format_fixed(bank_ms, 0) + " is not a bank: above 0");

  TimeUseTable table(args["band"].as<int>());
  for (const std::string& path : args["paths"].as<std::vector<std::string>>()) {
    if (fs::is_directory(path)) add_folder(table, path);
    else if (fs::exists(path)) add_log(table, path);
    else throw std::invalid_argument(path + " does not exist");
  }
  if (table.games() == 0)
    throw std::invalid_argument("no whole game to read (" + count_of(table.skipped(), "game") + " left out)");
  std::cout << format_time_use(table, bank_ms);
  if (args.count("csv")) {
    const std::string csv = args["csv"].as<std::string>();
    write_file_atomic(csv, time_use_csv(table));
    std::cout << "\nwrote " << csv << "\n";
  }
  return 0;
}

}  // namespace mushroom::cli
