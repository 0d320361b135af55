// Any learnable game's net (search/game.h) as the search's leaf evaluator,
// through a NetBackend: the adapter encodes the states, actions are named by
// their policy slots, and results are cached by the state's hash. The
// mushroom game has its own (nn/nn_evaluator.h: board symmetries averaged,
// a cache sized for the bot).
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "nn/model.h"
#include "nn/net_eval.h"
#include "nn/torch_backend.h"
#include "search/evaluator.h"

namespace mushroom::nn {

template <typename G>
class GameNetEvaluator : public Evaluator<G> {
 public:
  // feature_version: the net's input layout (nn/model.h feature_version_of).
  GameNetEvaluator(std::shared_ptr<NetBackend> backend, int feature_version)
      : backend_(std::move(backend)), version_(feature_version),
        plane_floats_(size_t(G::feature_planes(feature_version)) * G::kBoardRows * G::kBoardCols) {
    if (!backend_) throw std::invalid_argument("GameNetEvaluator needs a backend");
    if (plane_floats_ == 0)
      throw std::invalid_argument("the game has no input layout " + std::to_string(feature_version));
  }

  // priors: softmax of the net's logits over the request's actions; value:
  // P(win) - P(loss) for the side to move; margin: the value again.
  void evaluate(Span<const EvalRequest<G>> requests, Span<EvalResult> results) override {
    std::vector<size_t> misses;
    for (size_t i = 0; i < requests.size(); ++i) {
      auto hit = cache_.find(G::hash(*requests[i].state));
      if (hit != cache_.end() && hit->second.priors.size() == size_t(requests[i].num_actions)) results[i] = hit->second;
      else misses.push_back(i);
    }
    if (misses.empty()) return;
    planes_.resize(misses.size() * plane_floats_);
    slots_.resize(misses.size());
    queries_.clear();
    for (size_t m = 0; m < misses.size(); ++m) {
      const EvalRequest<G>& request = requests[misses[m]];
      G::encode(*request.state, planes_.data() + m * plane_floats_, version_);
      slots_[m].resize(size_t(request.num_actions));
      for (int a = 0; a < request.num_actions; ++a) slots_[m][size_t(a)] = G::action_index(request.actions[a]);
    }
    for (size_t m = 0; m < misses.size(); ++m)
      queries_.push_back(NetQuery{planes_.data() + m * plane_floats_, slots_[m].data(), int(slots_[m].size())});
    evals_.resize(queries_.size());
    backend_->evaluate(queries_, Span<NetEval>(evals_.data(), evals_.size()));
    if (cache_.size() > kCacheLimit) cache_.clear();
    for (size_t m = 0; m < misses.size(); ++m) {
      EvalResult& r = results[misses[m]];
      const NetEval& e = evals_[m];
      r.value = r.margin = e.value();
      r.priors.resize(e.logits.size());
      const float top = e.logits.empty() ? 0.0f : *std::max_element(e.logits.begin(), e.logits.end());
      float total = 0;
      for (size_t a = 0; a < e.logits.size(); ++a) total += r.priors[a] = std::exp(e.logits[a] - top);
      for (float& p : r.priors) p /= total;
      cache_[G::hash(*requests[misses[m]].state)] = r;
    }
  }

 private:
  static constexpr size_t kCacheLimit = 1 << 20;  // entries; the cache is cleared past this
  std::shared_ptr<NetBackend> backend_;
  int version_;
  size_t plane_floats_;
  std::unordered_map<uint64_t, EvalResult> cache_;
  std::vector<float> planes_;
  std::vector<std::vector<int32_t>> slots_;
  std::vector<NetQuery> queries_;
  std::vector<NetEval> evals_;
};

// The model as G's evaluator through LibTorch (so only code linking
// mushroom_torch may call it); throws when the model plays another game.
template <typename G>
std::unique_ptr<Evaluator<G>> make_game_net_evaluator(const Model& model, GameKind game, const std::string& device) {
  require_game(model, game, "the " + game_name(game) + " evaluator");
  return std::make_unique<GameNetEvaluator<G>>(make_torch_backend(model, device), feature_version_of(model.config));
}

}  // namespace mushroom::nn
