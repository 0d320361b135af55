// The network as the search's leaf evaluator (search/evaluator.h): misses
// from a whole batch of requests go to the backend in one call, and results
// are cached by position hash.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nn/net_eval.h"
#include "search/evaluator.h"
#include "mushroom/mushroom_game.h"

namespace mushroom::nn {

enum class SymmetryMode { kNone, kRandom, kAll };
// "none" | "random" | "all"; throws naming the bad value.
SymmetryMode parse_symmetry_mode(const std::string& name);

struct NnEvaluatorConfig {
  int cache_entries = 1 << 16;  // rounded up to a power of two; 0 disables the cache
  // none: the board as it is; random: one of the four symmetries chosen
  // from the position hash; all: the average over the four (test-time).
  SymmetryMode symmetry = SymmetryMode::kNone;
  float policy_temperature = 1.0f;  // softmax temperature on the logits
};

class NnEvaluator : public Evaluator<MushroomGame> {
 public:
  NnEvaluator(std::shared_ptr<NetBackend> backend, NnEvaluatorConfig config = {});
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override;

  uint64_t cache_hits() const { return hits_; }
  uint64_t net_positions() const { return net_positions_; }
  uint64_t net_calls() const { return net_calls_; }
  NetBackend& backend() { return *backend_; }

 private:
  struct CacheEntry {
    uint64_t key = 0;
    EvalResult result;
  };
  std::shared_ptr<NetBackend> backend_;
  NnEvaluatorConfig config_;
  std::vector<CacheEntry> cache_;
  uint64_t hits_ = 0, net_positions_ = 0, net_calls_ = 0;
  // Scratch for one batch.
  std::vector<float> planes_;                 // kInputSize floats per query
  std::vector<std::vector<int32_t>> slots_;  // the moves' policy indices per query
  std::vector<NetQuery> queries_;
  std::vector<NetEval> evals_;
};

}  // namespace mushroom::nn
