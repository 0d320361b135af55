// What an agent's last search found, for people reading a game: `mushroom
// analyze` and `mushroom bot --analysis` (agents/move_analysis.h).
#pragma once
#include <cstdint>
#include <vector>

#include "mushroom/move.h"

namespace mushroom {

struct SearchReport {
  Move best = Move::pass();
  double cells = 0;       // the position's value for the side to move, in cells of final margin
  int depth = 0;          // the last completed iteration (0 when the solver settled it)
  uint64_t nodes = 0;
  bool proved = false;    // cells is the exact final margin under best play for both sides
  std::vector<Move> pv;   // the line the search expects, starting with best
};

}  // namespace mushroom
