// The greedy baseline: plays greedy_move (mushroom/greedy.h), the legal
// rectangle of largest area.
#pragma once
#include <string>
#include "agents/agent.h"
#include "mushroom/greedy.h"

namespace mushroom {

class GreedyAgent : public Agent {
 public:
  std::string name() const override { return "greedy"; }
  Move choose_move(const Position& pos, const Clock&) override { return greedy_move(pos); }
};

}  // namespace mushroom
