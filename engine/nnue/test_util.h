// Test helpers for the learned evaluation (its own tests, and the search
// with it in engine/agents/).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "mushroom/movegen.h"
#include "nnue/evaluator.h"
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

// One step of a random walk through a game, which every evaluator in
// `evaluators` follows: with a move to take back, one time in pop_one_in
// the last move is taken back; otherwise a random legal move is played, or
// the pass one time in pass_one_in (0: only when nothing else is legal).
// Returns whether it pushed.
inline bool random_step(std::vector<Position>& line, Rng& rng, uint32_t pop_one_in, uint32_t pass_one_in,
                 std::initializer_list<Evaluator*> evaluators) {
  if (line.size() > 1 && rng.uniform(pop_one_in) == 0) {
    for (Evaluator* e : evaluators) e->pop();
    line.pop_back();
    return false;
  }
  MoveList list;
  const int n = generate_moves(line.back(), list);
  const Move m = n == 0 || (pass_one_in > 0 && rng.uniform(pass_one_in) == 0) ? Move::pass()
                                                                              : list[rng.uniform(uint32_t(n))];
  for (Evaluator* e : evaluators) e->push(line.back(), m);
  line.push_back(line.back());
  line.back().apply(m);
  return true;
}

}  // namespace mushroom::nnue
