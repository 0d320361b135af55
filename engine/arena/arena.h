// Matches between two external programs on paired boards: each board is
// played twice with the sides swapped. Results are from A's point of view.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "arena/games_file.h"
#include "arena/margin.h"
#include "arena/referee.h"
#include "arena/stats.h"
#include "mushroom/board_gen.h"

namespace mushroom {

struct ArenaConfig {
  std::string command[2];          // A, B: shell commands speaking the protocol
  std::string label[2] = {"A", "B"};
  int boards = 50;                 // pairs of games
  uint64_t seed = 1;               // board i uses a seed derived from this
  BoardMode board_mode = BoardMode::kUniform;
  RefereeConfig referee;           // time bank and limits (its cpu[] and seat_time_ms[] are ignored)
  int b_time_ms = 0;               // B's bank when it differs from A's (time odds; 0: referee.time_ms)
  int parallel = 1;                // games at once
  // Pin each game to one core: parallel slot k runs both of its programs on
  // core k mod the number of cores. Only one side thinks at a time, so each
  // program gets a whole core, as the judge gives it.
  bool pin = false;
  // Boards given instead of seeded ones (--boards-file: the official tool's
  // INPUT format); pair i plays boards[i], recorded with board_seed 0.
  std::vector<Position> boards_given;
  std::string boards_source;       // where they came from, for arena.txt
  // Per-game logs, games.csv (arena/games_file.h, the ladder's schema) and
  // report.txt; also arena.txt, the settings the games were played under.
  // Running again with the same folder resumes: games already in games.csv
  // are kept and not replayed, so a kill loses only the games in progress.
  std::string log_dir;
  // Also the report for programs, report.json (arena/arena_report.h), here;
  // "" for none but the log folder's.
  std::string json_path;
  // The two sequential tests (docs/matches.md, "The margin test"). Each is
  // decided at its first crossing of a bound, and its verdict kept from
  // there. The match stops when the test named by stop_on_margin decides:
  // the margin test when true, the W/D/L test when false; that test must be
  // set (run_arena refuses the match otherwise). The CLI sets both tests
  // whenever either is asked for, so both are reported on the same games.
  std::optional<Sprt> sprt;                 // W/D/L: the pentanomial test in Elo
  std::optional<MarginSprt> margin_sprt;    // the pairs' capped margins, in cells
  bool stop_on_margin = false;              // which of the two stops the match
  double margin_cap = kDefaultMarginCap;    // cells; also a forfeit's margin in every margin printed
};

struct ArenaGame {
  int board = 0;
  bool a_first = true;
  uint64_t board_seed = 0;
  RefereeResult result;
  bool done = false;
  int a_outcome() const { return a_first ? result.outcome() : -result.outcome(); }
  int a_margin() const;  // A's cells minus B's
  // Who forfeited: 0 = A, 1 = B, -1 = nobody.
  int forfeiter() const;
};

// A sequential test's verdict: "H1 accepted", "H0 accepted" or "undecided"
// (empty when the test did not run); the LLR and the games (complete
// pairs' games) when it crossed its bound, or over all games if it never
// did.
struct SprtVerdict {
  std::string result;
  double llr = 0;
  int games = 0;
  bool decided() const { return result == "H1 accepted" || result == "H0 accepted"; }
};

struct ArenaReport {
  std::vector<ArenaGame> games;  // finished games only, in board order
  int resumed = 0;               // of them, games read back from games.csv
  SprtVerdict sprt;              // the W/D/L test
  SprtVerdict margin_sprt;       // the margin test
};

// The board seed of pair i.
uint64_t arena_board_seed(uint64_t seed, int board);

// The games a match's folder already holds, as run_arena resumes them: the
// records of its games.csv (read_games_file), each checked against the
// match (its two programs, its board's seed, its outcome against its scores
// and forfeit) and put in its place, index 2 * board (+ 1 when B moved
// first).
struct ArenaResume {
  std::vector<ArenaGame> games;  // 2 * config.boards places; the games read back are done
  std::vector<int> order;        // their indices in games.csv's order, the order they finished
  int beyond = 0;                // records of boards past config.boards, left out
};
// Throws std::invalid_argument naming games_path and the line of a game that
// is not one of this match's.
ArenaResume resume_arena_games(const ArenaConfig& config, const std::vector<GameRecord>& records,
                               const std::string& games_path);

// Throws ProgramStartError (arena/referee.h), once the games in progress
// end, when a program that has not yet answered OK in this match (nor in a
// game read back) fails to start or exits before OK: a missing file or a
// broken build stops the match instead of forfeiting every game. That game
// is not recorded, so the match resumes once the command is fixed.
// Each game's line goes to `progress`; the counts to the process's progress
// reporter (util/progress.h). Writes report.txt and report.json in the log
// folder, and report.json at json_path.
ArenaReport run_arena(const ArenaConfig& config, std::ostream& progress);
// report.txt (arena/arena_report.cpp, beside report.json).
std::string format_report(const ArenaConfig& config, const ArenaReport& report);
// Pair scores for the statistics: complete pairs only.
std::vector<double> pair_scores(const std::vector<ArenaGame>& games);

// The running figures of a match: A's points, the pentanomial counts,
// normalized Elo and, with an SPRT, its log-likelihood ratio and bounds.
std::string match_summary(const ArenaConfig& config, const std::vector<ArenaGame>& games);

}  // namespace mushroom
