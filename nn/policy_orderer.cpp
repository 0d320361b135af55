#include "nn/policy_orderer.h"

#include <algorithm>

namespace mushroom::nn {

namespace {
constexpr size_t kCacheLimit = 1 << 14;  // positions; cleared past this (a game asks a few thousand)
}

PolicyOrderer::PolicyOrderer(const Model& model) : net_(model) {}

bool PolicyOrderer::score(const Position& pos, const Move* moves, int n, float* scores) {
  Entry& entry = cache_[pos.hash()];
  if (!std::equal(moves, moves + n, entry.moves.begin(), entry.moves.end())) {
    if (cache_.size() > kCacheLimit) {
      cache_.clear();
      return score(pos, moves, n, scores);
    }
    entry.moves.assign(moves, moves + n);
    NetEval e;
    net_.evaluate(pos, moves, n, e);
    ++net_calls_;
    entry.logits = e.logits;
  }
  std::copy(entry.logits.begin(), entry.logits.end(), scores);
  return true;
}

}  // namespace mushroom::nn
