#include "nn/nn_evaluator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "nn/features.h"
#include "util/bits.h"

namespace mushroom::nn {

SymmetryMode parse_symmetry_mode(const std::string& name) {
  if (name == "none") return SymmetryMode::kNone;
  if (name == "random") return SymmetryMode::kRandom;
  if (name == "all") return SymmetryMode::kAll;
  throw std::invalid_argument("symmetry mode '" + name + "' is not one of none, random, all");
}

NnEvaluator::NnEvaluator(std::shared_ptr<NetBackend> backend, NnEvaluatorConfig config)
    : backend_(std::move(backend)), config_(config) {
  if (!backend_) throw std::invalid_argument("NnEvaluator needs a backend");
  if (config_.policy_temperature <= 0) throw std::invalid_argument("policy temperature must be positive");
  if (config_.cache_entries > 0) cache_.resize(next_power_of_two(unsigned(config_.cache_entries)));
}

namespace {
// Softmax of logits / temperature, added (times weight) into probs.
void add_softmax(const std::vector<float>& logits, float temperature, float weight, std::vector<float>& probs) {
  const float mx = *std::max_element(logits.begin(), logits.end());
  float total = 0;
  std::vector<float> e(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) total += e[i] = std::exp((logits[i] - mx) / temperature);
  for (size_t i = 0; i < logits.size(); ++i) probs[i] += weight * e[i] / total;
}
}  // namespace

void NnEvaluator::evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) {
  std::vector<int> missing;
  const uint64_t mask = cache_.empty() ? 0 : cache_.size() - 1;
  for (size_t i = 0; i < requests.size(); ++i) {
    const auto& req = requests[i];
    if (!cache_.empty()) {
      const CacheEntry& entry = cache_[req.state->hash() & mask];
      if (entry.key == req.state->hash() && int(entry.result.priors.size()) == req.num_actions) {
        results[i] = entry.result;
        ++hits_;
        continue;
      }
    }
    missing.push_back(int(i));
  }
  if (missing.empty()) return;

  // One query per (request, symmetry); the moves are transformed with the board.
  slots_.clear();
  std::vector<int> owner;  // request index of each query
  for (int i : missing) {
    const auto& req = requests[i];
    int syms[4] = {0, 1, 2, 3};
    int count = 4;
    if (config_.symmetry == SymmetryMode::kNone) {
      count = 1;
    } else if (config_.symmetry == SymmetryMode::kRandom) {
      syms[0] = int((req.state->hash() * 0x9E3779B97F4A7C15ull) >> 62);
      count = 1;
    }
    for (int k = 0; k < count; ++k) {
      const Symmetry s = Symmetry(syms[k]);
      planes_.resize((owner.size() + 1) * size_t(kInputSize));
      encode_features(s == Symmetry::kIdentity ? *req.state : transform(s, *req.state),
                      planes_.data() + owner.size() * size_t(kInputSize));
      std::vector<int32_t> slots(size_t(req.num_actions));
      for (int a = 0; a < req.num_actions; ++a)
        slots[size_t(a)] = (s == Symmetry::kIdentity ? req.actions[a] : transform(s, req.actions[a])).index();
      slots_.push_back(std::move(slots));
      owner.push_back(i);
    }
  }
  queries_.clear();
  for (size_t q = 0; q < slots_.size(); ++q)
    queries_.push_back(NetQuery{planes_.data() + q * size_t(kInputSize), slots_[q].data(), int(slots_[q].size())});
  evals_.resize(queries_.size());
  backend_->evaluate(queries_, Span<NetEval>(evals_.data(), queries_.size()));
  net_positions_ += queries_.size();
  ++net_calls_;

  for (int i : missing) {
    EvalResult& r = results[i];
    r.value = r.margin = 0;
    r.priors.assign(requests[i].num_actions, 0.0f);
  }
  std::vector<int> per_request(requests.size(), 0);
  for (int o : owner) ++per_request[o];
  for (size_t q = 0; q < queries_.size(); ++q) {
    EvalResult& r = results[owner[q]];
    const float w = 1.0f / float(per_request[owner[q]]);
    r.value += w * evals_[q].value();
    r.margin += w * evals_[q].margin;
    add_softmax(evals_[q].logits, config_.policy_temperature, w, r.priors);
  }
  if (!cache_.empty())
    for (int i : missing) cache_[requests[i].state->hash() & mask] = CacheEntry{requests[i].state->hash(), results[i]};
}

}  // namespace mushroom::nn
