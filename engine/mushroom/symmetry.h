// The four symmetries of the 10x17 board, acting on positions and moves.
// Each is its own inverse.
#pragma once
#include <array>

#include "mushroom/position.h"

namespace mushroom {

enum class Symmetry : uint8_t { kIdentity = 0, kFlipRows = 1, kFlipCols = 2, kRotate180 = 3 };
inline constexpr std::array<Symmetry, 4> kAllSymmetries = {Symmetry::kIdentity, Symmetry::kFlipRows,
                                                    Symmetry::kFlipCols, Symmetry::kRotate180};

// Where cell (r, c) goes.
inline void transform_cell(Symmetry s, int& r, int& c) {
  if (s == Symmetry::kFlipRows || s == Symmetry::kRotate180) r = kRows - 1 - r;
  if (s == Symmetry::kFlipCols || s == Symmetry::kRotate180) c = kCols - 1 - c;
}

Move transform(Symmetry s, const Move& m);
// Digits and owners move; side to move, pass state, game end and ply stay.
Position transform(Symmetry s, const Position& pos);

}  // namespace mushroom
