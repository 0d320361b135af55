// The greedy choice: the legal rectangle of largest area, ties to the first
// in (r1, c1, r2, c2) order; the pass only when no rectangle is legal. The
// greedy agent plays it, and the searches fall back on it.
#pragma once
#include "mushroom/movegen.h"

namespace mushroom {

Move greedy_move(const Position& pos);
Move greedy_move(const MoveList& legal);

}  // namespace mushroom
