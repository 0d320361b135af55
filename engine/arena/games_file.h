// The games file, games.csv: one schema for the arena's and the ladder's
// finished games, one record per game in RFC 4180 CSV (util/csv.h: a
// reason keeps its commas, quotes and line ends), appended and flushed to
// disk as each game ends, so a kill loses at most the games in progress (a
// torn last record is dropped when the file is next read).
//
//   first,second,board,board_seed,first_score,second_score,outcome,forfeit_by,reason,log
//
//   first, second  the programs' names (letters, digits and . _ - / : + = @)
//   board          the board's index in the match or ladder (each board is
//                  played twice, sides swapped)
//   board_seed     the seed random_board() made it from (0: a board from a
//                  --boards-file, named in the folder's settings file)
//   first_score,   cells each side owned at the end (0 and 0 after a forfeit)
//   second_score
//   outcome        +1 first won, 0 draw, -1 second won; a forfeit loses
//   forfeit_by     the forfeiting program's name, or empty
//   reason         the forfeit's reason
//   log            the game's log (protocol/game_log.h), relative to the folder
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mushroom {

struct GameRecord {
  std::string first, second;
  int board = 0;
  uint64_t board_seed = 0;
  int first_score = 0, second_score = 0;
  int outcome = 0;
  std::string forfeit_by;
  std::string reason;
  std::string log;
};

extern const char* const kGamesFileHeader;

// A program name a games file can hold.
bool valid_program_name(const std::string& name);

std::string format_game_record(const GameRecord& game);
// Parses one line; throws std::invalid_argument naming `where` and the field.
GameRecord parse_game_record(const std::string& line, const std::string& where);
GameRecord parse_game_fields(const std::vector<std::string>& fields, const std::string& where);

// Reads a games file (none yet: empty). A last line without its newline was
// torn by a kill and is dropped (and cut from the file when `repair`).
// Throws std::invalid_argument naming the file and line for a malformed
// line, a wrong header, or a game (first, second, board) that appears twice.
std::vector<GameRecord> read_games_file(const std::string& path, bool repair);

// The record of the game whose log is `log_path`, from the games file
// beside it (the arena and the ladder write games.csv in their logs'
// folder): who played which seat. nullopt when there is no games.csv there
// or it names no such log; throws as read_games_file does for a bad one.
std::optional<GameRecord> game_record_of_log(const std::string& log_path);

// Appends one line and flushes it to the disk before returning, in a single
// write, so a kill leaves either the whole line or a torn tail.
void append_line_durably(const std::string& path, const std::string& line);

// Writes the header when the file is missing or empty.
void start_games_file(const std::string& path);

// The settings a folder's games were played under (the arena's arena.txt,
// the ladder's ladder.txt): writes `wanted` to `path` the first time;
// after that they must agree, else std::invalid_argument shows both,
// names `what` was played ("the match in DIR") and ends with `advice`.
// With `normalize`, texts equal once normalized say the same (the file is
// then rewritten as `wanted`); without, they must be equal.
void check_or_write_settings_file(const std::string& path, const std::string& wanted, const std::string& what,
                                  const std::string& advice,
                                  const std::function<std::string(const std::string&)>& normalize = {});

}  // namespace mushroom
