// A ladder: many programs on one rating list (arena/rating.h), from games on
// paired boards kept in an appendable games file.
//
// A ladder lives in a folder:
//   ladder.txt    the settings games were played under (seed, board mode,
//                 time bank, clock); a later run must agree with them
//   programs.txt  name <TAB> command, one program a line; a name keeps its
//                 command for the ladder's life, new names may join
//   games.csv     one line per finished game (arena/games_file.h, the
//                 arena's schema too), appended and flushed to disk as each
//                 game ends; a kill -9 loses at most the games in progress
//   games/        each game's log (protocol/game_log.h)
// Running again plays only the games not yet in games.csv.
#pragma once
#include <algorithm>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "arena/games_file.h"
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
  // Boards given instead of seeded ones (--boards-file, arena/boards_file.h):
  // board b is boards_given[b], recorded with board_seed 0.
  std::vector<Position> boards_given;
  std::string boards_source;  // where they came from, for ladder.txt
  RefereeConfig referee;
  int parallel = 1;
  bool pin = false;     // as the arena's --pin
};

// DIR/games.csv, as read_games_file (arena/games_file.h) reads it.
std::vector<GameRecord> read_ladder_games(const std::string& dir, bool repair);

struct LadderRow {
  std::string name;
  ProgramRating rating;
  int games = 0;
  double points = 0;
  int first_wdl[3] = {0, 0, 0}, second_wdl[3] = {0, 0, 0};  // W, D, L by seat
  int forfeits = 0;
};

// Two programs' games against each other, from the better ranked one's
// side: its W-D-L and score, and the likelihood that it is the stronger of
// the two, from their decisive games alone (arena/stats.h).
struct LadderPair {
  std::string a, b;
  int wins = 0, draws = 0, losses = 0;
  double score() const { return (wins + 0.5 * draws) / std::max(1, wins + draws + losses); }
  double los = 0.5;
};

struct LadderStandings {
  std::vector<LadderRow> rows;  // best first; unrated programs last
  std::vector<LadderPair> pairs;  // every pair that met, in the order of rows
  std::string anchor;
  RatingList fit;
  int games = 0;
};

// Rates every program of the ladder folder on all of its games. The anchor
// (0 Elo) is `anchor`, or the first program of programs.txt when empty.
LadderStandings ladder_standings(const std::string& dir, const std::string& anchor = "");
std::string format_standings(const LadderStandings& standings);
// The head-to-head table: one line per pair that met.
std::string format_head_to_head(const LadderStandings& standings);

struct LadderRunSummary {
  int played = 0;        // games played by this run
  int already_done = 0;  // scheduled games found in games.csv
};

// Plays every scheduled game not yet in the games file, appending each as it
// ends. Progress lines go to `progress`. Throws std::invalid_argument for a
// bad config (unknown gauntlet program, a name reused with another command,
// settings that differ from the folder's).
LadderRunSummary run_ladder(const LadderConfig& config, std::ostream& progress);

// What run_ladder would refuse of these programs in the ladder folder `dir`
// (a name known there under another command, or a build that changed since
// its games), thrown as std::invalid_argument the same way; writes nothing.
// For a caller that plays the ladder only after other long work.
void check_ladder_programs(const std::string& dir, const std::vector<LadderProgram>& programs);

// programs.txt of a ladder folder, in order.
std::vector<LadderProgram> read_ladder_programs(const std::string& dir);

}  // namespace mushroom
