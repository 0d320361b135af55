// Leaf evaluation for the search, built for batching: a driver may collect
// leaves from many searches and evaluate them in one call (the minigo /
// KataGo pattern: one search per game, many games per thread).
#pragma once
#include "util/span.h"
#include <vector>

namespace mushroom {

template <typename Game>
struct EvalRequest {
  const typename Game::State* state;
  const typename Game::Action* actions;  // the legal actions, in the search's order
  int num_actions;
};

struct EvalResult {
  float value = 0;           // expected outcome for the side to move, in [-1, 1]
  float margin = 0;          // expected final score margin for the side to move
  std::vector<float> priors; // one per legal action, summing to 1
};

template <typename Game>
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual void evaluate(Span<const EvalRequest<Game>> requests, Span<EvalResult> results) = 0;
  // Called by a playing agent before each move's search (budgets per move).
  virtual void begin_search() {}
};

// Uniform priors and a neutral value: a search before there is any net
// (proofs of finished lines still score).
template <typename Game>
class UniformEvaluator : public Evaluator<Game> {
 public:
  void evaluate(Span<const EvalRequest<Game>> requests, Span<EvalResult> results) override {
    for (size_t i = 0; i < requests.size(); ++i) {
      results[i].priors.assign(size_t(requests[i].num_actions), 1.0f / float(requests[i].num_actions));
      results[i].value = results[i].margin = 0;
    }
  }
};

}  // namespace mushroom
