// Slow, obviously-correct move generators. The tests check the fast
// generator against them, and `mushroom bench movegen` times all three.
#pragma once
#include <vector>

#include "mushroom/movegen.h"

namespace mushroom {

// Every rectangle checked cell by cell from the rules' definition.
std::vector<Move> generate_moves_naive(const Position& pos);

// A plain per-row-pair enumeration: column sums for each (r1, r2), then a
// two-pointer sweep over all 17 columns, with no pruning.
int generate_moves_two_pointer(const Position& pos, MoveList& list);

}  // namespace mushroom
