// Helpers shared by the nn tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "mushroom/movegen.h"

namespace mushroom::nn {

// The parity metric: |a - b| / max(|a|, |b|, 1), i.e. relative error for
// outputs larger than 1 in magnitude and absolute error below that (float32
// summation order alone moves outputs near 0 by ~1e-6, which a pure
// relative error would blow up without bound).
inline double parity_error(double a, double b) { return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1.0}); }

inline std::vector<Move> legal_with_pass(const Position& p) {
  MoveList list;
  generate_moves(p, list);
  std::vector<Move> moves(list.begin(), list.end());
  moves.push_back(Move::pass());
  return moves;
}

}  // namespace mushroom::nn
