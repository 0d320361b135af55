// A conv net's policy as alpha-beta's move-ordering advice in its first
// plies (alphabeta/move_orderer.h): the logits of the position's moves, from
// the bot's own batch-1 inference (nn/plain_net.h), kept per position so
// that each of iterative deepening's iterations asks the net once.
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include "alphabeta/move_orderer.h"
#include "nn/model.h"
#include "nn/plain_net.h"

namespace mushroom::nn {

class PolicyOrderer : public MoveOrderer {
 public:
  explicit PolicyOrderer(const Model& model);
  bool score(const Position& pos, const Move* moves, int n, float* scores) override;
  int64_t net_calls() const { return net_calls_; }

 private:
  PlainNet net_;
  // Logits by position hash, for the moves in the order last asked.
  struct Entry {
    std::vector<Move> moves;
    std::vector<float> logits;
  };
  std::unordered_map<uint64_t, Entry> cache_;
  int64_t net_calls_ = 0;
};

}  // namespace mushroom::nn
