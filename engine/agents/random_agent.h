// Uniform over the legal rectangles; passes only when none exists.
#pragma once
#include <string>
#include "agents/agent.h"
#include "util/rng.h"

namespace mushroom {

class RandomAgent : public Agent {
 public:
  explicit RandomAgent(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Move choose_move(const Position& pos, const Clock& clock) override;

 private:
  Rng rng_;
};

}  // namespace mushroom
