// A blockgame net (configs/blockgame.toml) as the search's leaf evaluator:
// one batched LibTorch call per request batch, results cached by filled
// cells (a position's value and legal moves depend on nothing else).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "blockgame/blockgame_game.h"
#include "nn/model.h"
#include "search/evaluator.h"

namespace mushroom::nn {

class BlockgameEvaluator : public Evaluator<blockgame::BlockGame> {
 public:
  // device: "cpu", "cuda" or "cuda:N". Throws when the model is not a blockgame net.
  BlockgameEvaluator(const Model& model, const std::string& device);
  ~BlockgameEvaluator() override;
  // priors: softmax of the net's logits over the request's actions; value:
  // P(win) - P(loss) for the side to move; margin: the value again.
  void evaluate(Span<const EvalRequest<blockgame::BlockGame>> requests, Span<EvalResult> results) override;

 private:
  struct Net;
  std::unique_ptr<Net> net_;
  std::unordered_map<uint32_t, EvalResult> cache_;
};

}  // namespace mushroom::nn
