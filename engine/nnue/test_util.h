// Test helpers for the learned evaluation (its own tests, and the search
// with it in engine/agents/).
#pragma once
#include <cstdint>
#include <vector>

#include "nnue/network.h"
#include "util/rng.h"

namespace mushroom::nnue {

// Random weights inside the integer runtime's ranges: transformer rows of
// about +-0.03 (456 active features keep the accumulator near +-1), dense
// weights up to +-1.
inline Network random_network(const Shape& shape, uint64_t seed) {
  Network m = Network::hand_equivalent(shape);
  Rng rng(seed);
  const auto fill = [&](std::vector<float>& v, double scale) {
    for (float& x : v) x = float(scale * (2 * rng.uniform_double() - 1));
  };
  fill(m.ft_weight, 0.03);
  fill(m.ft_bias, 0.5);
  fill(m.l1_weight, 0.5);
  fill(m.l1_bias, 0.3);
  fill(m.l2_weight, 1.0);
  fill(m.l2_bias, 0.3);
  fill(m.out_weight, 1.5);
  for (float& b : m.out_bias) b = float(0.7 + 0.5 * rng.uniform_double());
  m.skip_margin = 0.9f;
  m.skip_gain = 0.4f;
  return m;
}

}  // namespace mushroom::nnue
