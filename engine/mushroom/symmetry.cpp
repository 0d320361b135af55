#include "mushroom/symmetry.h"

#include <algorithm>

namespace mushroom {

Move transform(Symmetry s, const Move& m) {
  if (m.is_pass()) return m;
  int r1 = m.r1, c1 = m.c1, r2 = m.r2, c2 = m.c2;
  transform_cell(s, r1, c1);
  transform_cell(s, r2, c2);
  return Move::rect(std::min(r1, r2), std::min(c1, c2), std::max(r1, r2), std::max(c1, c2));
}

Position transform(Symmetry s, const Position& pos) {
  Position out;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      int tr = r, tc = c;
      transform_cell(s, tr, tc);
      out.set_digit(tr, tc, pos.digit(r, c));
      out.set_owner(tr, tc, pos.owner(r, c));
    }
  out.set_to_move(pos.to_move());
  out.set_last_pass(pos.last_move_was_pass());
  out.set_game_over(pos.game_over());
  out.set_ply(pos.ply());
  return out;
}

}  // namespace mushroom
