#include "mushroom/zobrist.h"

#include "util/rng.h"

namespace mushroom::zobrist {

static Keys make_keys() {
  Keys k{};
  Rng rng(0x6D757368726F6F6Dull);  // "mushroom"
  for (int cell = 0; cell < kCells; ++cell) {
    k.digit[cell][0] = 0;
    for (int d = 1; d < 10; ++d) k.digit[cell][d] = rng.next_u64();
    k.owner[cell][0] = 0;
    for (int o = 1; o < 3; ++o) k.owner[cell][o] = rng.next_u64();
  }
  k.second_to_move = rng.next_u64();
  k.last_pass = rng.next_u64();
  k.game_over = rng.next_u64();
  return k;
}

const Keys& keys() {
  static const Keys k = make_keys();
  return k;
}

}  // namespace mushroom::zobrist
