// Game logs in the official local testing tool's format:
//
//   INIT <10 rows of 17 digits>
//   FIRST|SECOND r1 c1 r2 c2 ms        one line per move (pass: -1 -1 -1 -1;
//                                      a rectangle outside the board is refused)
//   FINISH
//   SCOREFIRST n
//   SCORESECOND n
//
// or, when a player forfeits, a last line `ABORT FIRST|SECOND reason`.
//
// Self-play logs add, after a move line, what the search thought of it (our
// extension; the official tool never writes it):
//
//   SEARCH value n  r1 c1 r2 c2 visits q  (n candidates, most visited first)
//
// value and q are from the mover's side, in [-1, 1] (a log with either
// outside is refused).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "mushroom/position.h"

namespace mushroom {

struct SearchCandidate {
  Move move;
  int visits = 0;
  double q = 0;
};

struct SearchNote {
  double value = 0;
  std::vector<SearchCandidate> candidates;
};

struct LoggedMove {
  Player player;
  Move move;
  int ms;
  std::optional<SearchNote> search = std::nullopt;
};

struct GameLog {
  Position start;
  std::vector<LoggedMove> moves;
  bool finished = false;             // FINISH seen
  std::optional<Player> aborted_by;  // ABORT seen
  std::string abort_reason;
  int score_first = 0, score_second = 0;

  // Replays the moves; returns the final position.
  Position final_position() const;
};

// Gives the logged mover the move in pos and checks the move; throws
// std::invalid_argument "move N (PLAYER r1 c1 r2 c2) is illegal: why" (N
// from 1) when it is not legal there. pos is not changed otherwise.
void check_logged_move(Position& pos, const LoggedMove& move, size_t index);

std::string format_game_log(const GameLog& log);
// Throws ParseError naming the source and line on malformed logs.
GameLog parse_game_log(std::string_view text, const std::string& source = "<log>");
// The log in a file: std::runtime_error naming an unreadable file, ParseError
// naming the file and line of a malformed one.
GameLog read_game_log(const std::string& path);

}  // namespace mushroom
