// Balanced boards: random contest boards (uniform digits 1-9) on which the
// first seat does not decide the game for our bot, so that a paired match
// between two strong programs is not a string of 1-1 pairs.
//
// The criterion: our agent plays the board against itself once, each side
// with a short bank (1 s by default); the board is kept when the first seat
// ends at most max_margin cells ahead (0 by default: the second seat holds,
// winning or drawing). Measured in bench/README.md: a board's first-seat
// margin at a clock repeats (0.54 correlation between two self-play pairs
// of the same 150 boards at 1 s), while fixed-depth self-play without the
// clock's endgame solver does not (0.10 between depths 4 and 5), so the
// games are played at a clock. Boards are drawn from the contest's
// distribution; only the selection differs.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "agents/agent_spec.h"
#include "mushroom/position.h"

namespace mushroom {

struct BalancedBoardsConfig {
  AgentSpec agent;        // plays both seats of the self-play game
  int time_ms = 1000;     // each side's bank (wall time in this process)
  int count = 1000;       // balanced boards to find
  int max_margin = 0;     // keep a board when the first seat's cells - the second's <= this
  uint64_t seed = 1;      // candidate i is random_board(arena_board_seed(seed, i))
  int parallel = 1;       // self-play games at once
  int max_candidates = 1'000'000;  // give up after this many
  // Every candidate's self-play result, one CSV line each (appended as it
  // finishes); a run with the same file and settings resumes from it.
  std::string trials_path;
};

// One candidate board's self-play game.
struct BoardTrial {
  int index = 0;
  uint64_t board_seed = 0;
  int first_cells = 0, second_cells = 0;
  int moves = 0;
  int first_margin() const { return first_cells - second_cells; }
};

bool is_balanced(const BoardTrial& trial, int max_margin);

// The self-play game of one candidate, each side with a bank of time_ms.
BoardTrial play_board_trial(const AgentSpec& agent, int time_ms, uint64_t seed, int index);

struct BalancedBoards {
  std::vector<Position> boards;     // the first `count` balanced candidates, in candidate order
  std::vector<BoardTrial> trials;   // every candidate tried, in index order
  int resumed = 0;                  // of them, read back from trials_path
};

// Plays candidates in index order (in parallel) until `count` are balanced.
// Throws std::invalid_argument naming a bad setting, a trials file written
// under other settings, or max_candidates reached.
BalancedBoards find_balanced_boards(const BalancedBoardsConfig& config, std::ostream& progress);

// The trials file's first line: the settings its results depend on.
std::string balanced_boards_settings_line(const BalancedBoardsConfig& config);

}  // namespace mushroom
