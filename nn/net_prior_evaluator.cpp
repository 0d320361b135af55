#include "nn/net_prior_evaluator.h"

#include <algorithm>
#include <stdexcept>

namespace mushroom::nn {

NetPriorEvaluator::NetPriorEvaluator(std::shared_ptr<NnEvaluator> net, int net_leaves)
    : net_(std::move(net)), net_leaves_(net_leaves) {
  if (!net_) throw std::invalid_argument("NetPriorEvaluator: no network evaluator");
  if (net_leaves_ < 0) throw std::invalid_argument("NetPriorEvaluator: net_leaves must be >= 0");
}

void NetPriorEvaluator::evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) {
  material_.evaluate(requests, results);
  const size_t from_net = size_t(std::clamp(net_leaves_ - net_used_, 0, int(requests.size())));
  if (from_net == 0) return;
  net_results_.resize(from_net);
  net_->evaluate(requests.first(from_net), Span<EvalResult>(net_results_.data(), from_net));
  for (size_t i = 0; i < from_net; ++i) results[i].priors.swap(net_results_[i].priors);
  net_used_ += int(from_net);
}

}  // namespace mushroom::nn
