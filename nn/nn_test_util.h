// Helpers shared by the nn tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "mushroom/movegen.h"
#include "nn/features.h"
#include "nn/net_eval.h"
#include "nn/reference_net.h"

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

// The largest parity_error over every output (win/draw/loss, margin, the
// legal moves' logits, ownership) between a runtime and reference_forward.
template <typename Net>
double worst_error_vs_reference(const Model& model, Net& net, const std::vector<Position>& positions) {
  double worst = 0;
  for (const Position& p : positions) {
    std::vector<float> planes(kInputSize);
    encode_features(p, planes.data());
    NetEval ref, fast;
    reference_forward(model, planes.data(), ref);
    const auto moves = legal_with_pass(p);
    net.evaluate(p, moves.data(), int(moves.size()), fast, true);
    for (int k = 0; k < 3; ++k) worst = std::max(worst, parity_error(ref.wdl[k], fast.wdl[k]));
    worst = std::max(worst, parity_error(ref.margin, fast.margin));
    for (size_t i = 0; i < moves.size(); ++i)
      worst = std::max(worst, parity_error(ref.logits[moves[i].index()], fast.logits[i]));
    for (int i = 0; i < kCells; ++i) worst = std::max(worst, parity_error(ref.ownership[i], fast.ownership[i]));
  }
  return worst;
}

}  // namespace mushroom::nn
