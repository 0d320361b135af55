// Zobrist keys for digits, owners, side to move, pass state and game end. Fixed seed,
// so hashes are identical across runs and machines.
#pragma once
#include <cstdint>

#include "mushroom/move.h"

namespace mushroom::zobrist {

struct Keys {
  uint64_t digit[kCells][10];  // digit[cell][0] is 0: empty cells add nothing
  uint64_t owner[kCells][3];   // owner[cell][0] is 0
  uint64_t second_to_move;
  uint64_t last_pass;
  uint64_t game_over;  // two passes in a row
};

const Keys& keys();

}  // namespace mushroom::zobrist
