// Evaluators for the mushroom game when there is no network.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mushroom/mushroom_game.h"
#include "search/evaluator.h"

namespace mushroom {

// Priors without a network: uniform over the rectangles, and the pass gets a
// tenth of a rectangle's share (it is rarely right while moves remain).
void heuristic_priors(const Move* actions, int n, std::vector<float>& priors);

// Value from greedy rollouts: both sides play the largest rectangle until
// the game ends; the final margin m gives value tanh(m / 8).
class RolloutEvaluator : public Evaluator<MushroomGame> {
 public:
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override;
};

// Value from the position alone: the margin plus half the best immediate
// gain of the side to move, through tanh(x / 8).
class MaterialEvaluator : public Evaluator<MushroomGame> {
 public:
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override;
};

// Deterministic pseudo-random priors and values from the position hash, for
// tests that need a fixed but arbitrary evaluator.
class RandomEvaluator : public Evaluator<MushroomGame> {
 public:
  explicit RandomEvaluator(uint64_t seed) : seed_(seed) {}
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override;

 private:
  uint64_t seed_;
};

}  // namespace mushroom
