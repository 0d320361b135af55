// Referees one game between two external programs over the contest
// protocol, as the official local testing tool does: time is measured on
// the referee's side, and any fault forfeits the game with a reason.
#pragma once
#include <stdexcept>
#include <string>

#include "protocol/game_log.h"

namespace mushroom {

// What a move costs its player's bank: the wall time from TIME to the reply
// (the official local tool), or the CPU time the program's whole process
// tree used in that interval (the judge). CPU time stays fair when more
// games run at once than there are cores.
enum class ClockKind { kWall, kCpu };
const char* clock_name(ClockKind kind);
// "wall" or "cpu"; throws std::invalid_argument naming anything else.
ClockKind parse_clock(const std::string& text);

struct RefereeConfig {
  int time_ms = 10000;          // each player's bank for the whole game
  // A seat's own bank (first, second) when above 0, for time odds: the
  // arena's --b-time-ms. 0: time_ms.
  int seat_time_ms[2] = {0, 0};
  ClockKind clock = ClockKind::kWall;
  // Under the CPU clock a program that sleeps spends nothing, so one move
  // may also take at most this much wall time (0: the whole bank, time_ms).
  int move_wall_limit_ms = 0;
  int ready_timeout_ms = 3000;  // to answer READY with OK
  int max_turns = 999;
  std::string stderr_path[2];   // where each program's stderr goes ("" = discard)
  int cpu[2] = {-1, -1};        // pin each program to a core (-1: no pinning)
  // Starts both programs with MUSHROOM_REQUIRE_WEIGHTS=1, so an exported bot
  // whose data.bin is missing or corrupt exits before OK (a forfeit naming
  // it) instead of playing on, weaker, with no warning in the results.
  // false plays them as the judge does, which sets nothing.
  bool require_weights = true;
};

struct RefereeResult {
  GameLog log;
  // Cells owned at the end (0 for both after a forfeit).
  int score(Player p) const { return p == kFirst ? log.score_first : log.score_second; }
  // +1 first wins, -1 second wins, 0 draw; a forfeit loses.
  int outcome() const;
  // Which programs answered READY with OK.
  bool answered_ok[2] = {false, false};
  // The forfeit came before OK because the program could not be started or
  // exited (not because it was slow or said something else): a match
  // stops on it when the program has never started (arena/arena.h).
  bool start_failed = false;
};

// A match or ladder stopped because one of its programs never started: it
// could not be run, or it exited before its first OK. The message names the
// program and quotes its last stderr line.
struct ProgramStartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

RefereeResult referee_game(const std::string& first_command, const std::string& second_command,
                           const Position& start, const RefereeConfig& config);

}  // namespace mushroom
