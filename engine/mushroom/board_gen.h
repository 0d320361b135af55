// Seeded starting boards: uniform digits 1..9, as the contest uses.
#pragma once
#include <cstdint>

#include "mushroom/position.h"

namespace mushroom {

enum class BoardMode {
  kUniform,        // each cell uniform in 1..9, independently
  kSumMultipleOf10 // the same, conditioned on the total being a multiple of 10
};

Position random_board(uint64_t seed, BoardMode mode = BoardMode::kUniform);

}  // namespace mushroom
