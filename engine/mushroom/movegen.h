// Fast legal-move enumeration for the mushroom game.
//
// For every row band r1..r2 the column sums of the band are kept
// incrementally. Only columns holding a mushroom inside the band can be a
// rectangle's left or right side, so the band is compressed to those columns;
// their sums are all >= 1, so for each left column at most one right column
// gives exactly 10, found by a two-pointer sweep. A band whose smallest
// non-empty column sum already exceeds 10 can hold no move, and neither can
// any deeper band from the same r1, so the sweep stops there.
#pragma once
#include <array>

#include "mushroom/position.h"

namespace mushroom {

// At most one right edge per (r1, r2, c1): 55 * 17 = 935 rectangles.
constexpr int kMaxMoves = 1024;

struct MoveList {
  std::array<Move, kMaxMoves> moves;
  int size = 0;
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
  const Move& operator[](int i) const { return moves[i]; }
  void push(const Move& m) { moves[size++] = m; }
};

// Fills list with every legal rectangle (never the pass), ordered by
// (r1, r2, c1). Returns the count. An ended game has no moves.
int generate_moves(const Position& pos, MoveList& list);

// True when at least one rectangle is legal (cheaper than generating).
bool has_any_move(const Position& pos);

}  // namespace mushroom
