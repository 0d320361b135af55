// The greedy baseline done right: the legal rectangle of largest area, ties
// to the first in (r1, c1, r2, c2) order; passes only when no move exists.
#pragma once
#include "agents/agent.h"
#include "mushroom/movegen.h"

namespace mushroom {

// The greedy choice for pos (the pass when there is no legal rectangle).
Move greedy_move(const Position& pos);
Move greedy_move(const MoveList& legal);

class GreedyAgent : public Agent {
 public:
  std::string name() const override { return "greedy"; }
  Move choose_move(const Position& pos, const Clock&) override { return greedy_move(pos); }
};

}  // namespace mushroom
