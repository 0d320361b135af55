// Network priors at the top of the tree, material values everywhere: the
// first `net_leaves` leaves of each move's search (the root and the moves
// the search visits first) take their move priors from the network; every
// leaf's value is the material evaluation (mushroom/mushroom_evaluators.h).
// Values keep one scale across the tree, and the search runs at nearly the
// material evaluator's speed while the net steers where it looks.
#pragma once
#include <memory>

#include "nn/nn_evaluator.h"
#include "mushroom/mushroom_evaluators.h"

namespace mushroom::nn {

class NetPriorEvaluator : public Evaluator<MushroomGame> {
 public:
  NetPriorEvaluator(std::shared_ptr<NnEvaluator> net, int net_leaves);
  void begin_search() override { net_used_ = 0; }
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override;

 private:
  std::shared_ptr<NnEvaluator> net_;
  MaterialEvaluator material_;
  int net_leaves_;
  int net_used_ = 0;
  std::vector<EvalResult> net_results_;
};

}  // namespace mushroom::nn
