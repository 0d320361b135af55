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

// Endgames: games of random and greedy moves on seeded uniform boards,
// stopped at the first position with at most max_left mushrooms (games that
// end sooner are dropped); a quarter of them just after the opponent's pass.
// Either side may be to move. For checking exact solvers against each other.
std::vector<Position> endgame_positions(int count, uint64_t seed, int max_left);

}  // namespace mushroom
