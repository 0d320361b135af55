// Positions from playouts, covering every stage of the game: each playout
// starts on a fresh random board and mixes uniformly random moves with
// greedy ones, and every position along it is kept. Used for the
// differential tests and for the standard benchmark set.
#pragma once
#include <cstdint>
#include <vector>

#include "mushroom/position.h"

namespace mushroom {

std::vector<Position> playout_positions(int count, uint64_t seed);

}  // namespace mushroom
