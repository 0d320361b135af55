// Perft: the number of move sequences of exactly `depth` plies. The pass
// counts as a move; a sequence whose two passes in a row end the game before
// the last ply counts 0, and one whose second pass is the last ply counts 1.
#pragma once
#include <cstdint>

#include "mushroom/position.h"

namespace mushroom {

uint64_t perft(Position& pos, int depth);

}  // namespace mushroom
