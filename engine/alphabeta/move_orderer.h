// Move-ordering advice alpha-beta may take in its first plies, where a few
// costly calls fit the budget: a score per move, higher searched first (a
// policy net's logits, say: nn/policy_orderer.h). It changes the order in
// which moves are searched, not which: a better order cuts more and reaches
// deeper in the same time (late-move reductions then fall on other moves).
#pragma once
#include "mushroom/position.h"

namespace mushroom {

class MoveOrderer {
 public:
  virtual ~MoveOrderer() = default;
  // Writes scores[i] for moves[i] (the pass may be among them); false to
  // leave the search's own order.
  virtual bool score(const Position& pos, const Move* moves, int n, float* scores) = 0;
};

}  // namespace mushroom
