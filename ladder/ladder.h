// A ladder: many programs on one rating list (arena/rating.h), from games on
// paired boards kept in an appendable games file.
//
// A ladder lives in a folder:
//   ladder.txt    the settings games were played under (seed, board mode,
//                 time bank, clock); a later run must agree with them
//   programs.txt  name <TAB> command, one program a line; a name keeps its
//                 command for the ladder's life, new names may join
//   games.csv     one line per finished game, appended and flushed to disk
//                 as each game ends; a kill -9 loses at most the games in
//                 progress (a torn last line is dropped on the next run)
//   games/        each game's log (protocol/game_log.h)
// Running again plays only the games not yet in games.csv.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "arena/rating.h"
#include "arena/referee.h"
#include "mushroom/board_gen.h"

namespace mushroom {

struct LadderProgram {
  std::string name;     // letters, digits and . _ - / : + = only
  std::string command;  // a shell command speaking the protocol
};

struct LadderConfig {
  std::string dir;
  std::vector<LadderProgram> programs;  // this run's programs
  // Empty: a round robin among `programs`. Otherwise a gauntlet: this program
  // (one of `programs`) against each of the others.
  std::string gauntlet;
  int boards = 20;      // per pair of programs; each board is played twice
  uint64_t seed = 1;    // the boards: the same for every pair
  BoardMode board_mode = BoardMode::kUniform;
  RefereeConfig referee;
  int parallel = 1;
  bool pin = false;     // as the arena's --pin
};

// One line of games.csv.
struct LadderGame {
  std::string first, second;  // program names
  int board = 0;
  uint64_t board_seed = 0;
  int first_score = 0, second_score = 0;
  int outcome = 0;            // +1 first won, 0 draw, -1 second won (a forfeit loses)
  std::string forfeit_by;     // the forfeiting program's name, or empty
  std::string reason;         // the forfeit's reason
  std::string log;            // the game log's path, relative to the ladder folder
};

// The games file's header line.
extern const char* const kLadderGamesHeader;
std::string format_ladder_game(const LadderGame& game);
// Parses one line; throws std::invalid_argument naming `where` and the field.
LadderGame parse_ladder_game(const std::string& line, const std::string& where);

// Reads DIR/games.csv (none yet: empty). A last line without its newline
// was torn by a kill and is dropped (and cut from the file when `repair`).
// Throws std::invalid_argument naming the file and line for a malformed
// line or a game that appears twice.
std::vector<LadderGame> read_ladder_games(const std::string& dir, bool repair);

struct LadderRow {
  std::string name;
  ProgramRating rating;
  int games = 0;
  double points = 0;
  int first_wdl[3] = {0, 0, 0}, second_wdl[3] = {0, 0, 0};  // W, D, L by seat
  int forfeits = 0;
};

struct LadderStandings {
  std::vector<LadderRow> rows;  // best first; unrated programs last
  std::string anchor;
  RatingList fit;
  int games = 0;
};

// Rates every program of the ladder folder on all of its games. The anchor
// (0 Elo) is `anchor`, or the first program of programs.txt when empty.
LadderStandings ladder_standings(const std::string& dir, const std::string& anchor = "");
std::string format_standings(const LadderStandings& standings);

struct LadderRunSummary {
  int played = 0;        // games played by this run
  int already_done = 0;  // scheduled games found in games.csv
};

// Plays every scheduled game not yet in the games file, appending each as it
// ends. Progress lines go to `progress`. Throws std::invalid_argument for a
// bad config (unknown gauntlet program, a name reused with another command,
// settings that differ from the folder's).
LadderRunSummary run_ladder(const LadderConfig& config, std::ostream& progress);

// programs.txt of a ladder folder, in order.
std::vector<LadderProgram> read_ladder_programs(const std::string& dir);

}  // namespace mushroom
