#include "nn/features.h"

#include <algorithm>

namespace mushroom::nn {

void encode_features(const Position& pos, float* out) {
  std::fill(out, out + kInputSize, 0.0f);
  const Player me = pos.to_move();
  const Player them = Player(1 - me);
  const float second = me == kSecond ? 1.0f : 0.0f;
  const float passed = pos.last_move_was_pass() ? 1.0f : 0.0f;
  const float phase = float(pos.mushrooms_left()) / float(kCells);
  for (int r = 0; r < kRows; ++r) {
    const uint32_t mine = pos.owned_mask(me, r), theirs = pos.owned_mask(them, r);
    for (int c = 0; c < kCols; ++c) {
      const int cell = r * kCols + c;
      const int d = pos.digit(r, c);
      out[(d > 0 ? d - 1 : 9) * kCells + cell] = 1.0f;
      const int owner_plane = (mine >> c & 1) ? 10 : (theirs >> c & 1) ? 11 : 12;
      out[owner_plane * kCells + cell] = 1.0f;
      out[13 * kCells + cell] = second;
      out[14 * kCells + cell] = passed;
      out[15 * kCells + cell] = phase;
      out[16 * kCells + cell] = 1.0f;
    }
  }
}

}  // namespace mushroom::nn
