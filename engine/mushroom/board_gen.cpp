#include "mushroom/board_gen.h"

#include "util/rng.h"

namespace mushroom {

Position random_board(uint64_t seed, BoardMode mode) {
  Rng rng(seed);
  std::array<std::array<uint8_t, kCols>, kRows> digits;
  while (true) {
    int total = 0;
    for (auto& row : digits)
      for (auto& d : row) {
        d = uint8_t(1 + rng.uniform(9));
        total += d;
      }
    // Rejection keeps the exact conditional distribution (about 1 in 10 kept).
    if (mode == BoardMode::kUniform || total % 10 == 0) break;
  }
  return Position::from_digits(digits);
}

}  // namespace mushroom
