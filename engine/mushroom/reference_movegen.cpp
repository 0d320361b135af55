#include "mushroom/reference_movegen.h"

namespace mushroom {

std::vector<Move> generate_moves_naive(const Position& pos) {
  std::vector<Move> moves;
  if (pos.game_over()) return moves;
  for (int r1 = 0; r1 < kRows; ++r1)
    for (int c1 = 0; c1 < kCols; ++c1)
      for (int r2 = r1; r2 < kRows; ++r2)
        for (int c2 = c1; c2 < kCols; ++c2) {
          int sum = 0;
          bool top = false, bottom = false, left = false, right = false;
          for (int r = r1; r <= r2; ++r)
            for (int c = c1; c <= c2; ++c) {
              const int d = pos.digit(r, c);
              sum += d;
              if (d) {
                top |= r == r1;
                bottom |= r == r2;
                left |= c == c1;
                right |= c == c2;
              }
            }
          if (sum == 10 && top && bottom && left && right) moves.push_back(Move::rect(r1, c1, r2, c2));
        }
  return moves;
}

int generate_moves_two_pointer(const Position& pos, MoveList& list) {
  list.size = 0;
  if (pos.game_over()) return 0;
  for (int r1 = 0; r1 < kRows; ++r1)
    for (int r2 = r1; r2 < kRows; ++r2) {
      int colsum[kCols];
      for (int c = 0; c < kCols; ++c) {
        colsum[c] = 0;
        for (int r = r1; r <= r2; ++r) colsum[c] += pos.digit(r, c);
      }
      const uint32_t top = pos.nonzero_mask(r1), bottom = pos.nonzero_mask(r2);
      // Window [c1, c2) with sum of colsum; advance c2 while sum < 10.
      int c2 = 0, sum = 0;
      for (int c1 = 0; c1 < kCols; ++c1) {
        if (c2 < c1) c2 = c1, sum = 0;
        while (c2 < kCols && sum < 10) sum += colsum[c2++];
        // Trailing empty columns cannot be the right side; back off to the
        // last column that has a mushroom.
        int right = c2 - 1;
        while (right >= c1 && colsum[right] == 0) --right;
        if (sum == 10 && colsum[c1] > 0 && right >= c1) {
          const uint32_t span = column_span(c1, right);
          if ((top & span) && (bottom & span)) list.push(Move::rect(r1, c1, r2, right));
        }
        sum -= colsum[c1];
      }
    }
  return list.size;
}

}  // namespace mushroom
