// Plays two in-process agents against each other on one board.
#pragma once
#include <vector>

#include "agents/agent.h"

namespace mushroom {

// The official tool ends a game after this many turns.
constexpr int kMaxTurns = 999;

struct PlayedMove {
  Player player;
  Move move;
  double ms;  // wall time the agent took
};

struct LocalGameResult {
  Position start;
  Position final;
  std::vector<PlayedMove> moves;
  std::string forfeit;  // non-empty when a side played an illegal move
  Player forfeiter = kFirst;
  // +1 first player wins, -1 second wins, 0 draw (a forfeit loses).
  int outcome() const;
};

// Each side's clock starts at bank_ms (wall time, as the agents plan it).
LocalGameResult play_local_game(Agent& first, Agent& second, const Position& start, int bank_ms = 10000);

}  // namespace mushroom
