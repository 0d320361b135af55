// What a network evaluation returns, and the interface every runtime offers
// the search: a batch of positions, each with the moves it wants logits for.
#pragma once
#include "util/span.h"
#include <string>
#include <vector>

#include "mushroom/position.h"

namespace mushroom::nn {

struct NetQuery {
  const Position* position;
  const Move* moves;  // the moves to score (legal ones; the pass included)
  int num_moves;
  bool want_ownership = false;
};

struct NetEval {
  float wdl[3] = {0, 0, 0};     // win/draw/loss probabilities for the side to move
  float margin = 0;             // expected final margin (cells) for the side to move
  std::vector<float> logits;    // one per queried move, before the softmax
  std::vector<float> ownership; // kCells values in [-1, 1] when asked for

  float value() const { return wdl[0] - wdl[2]; }
};

class NetBackend {
 public:
  virtual ~NetBackend() = default;
  virtual void evaluate(Span<const NetQuery> queries, Span<NetEval> out) = 0;
  virtual std::string name() const = 0;
};

// Turns win/draw/loss logits into probabilities (a stable softmax of three).
void wdl_softmax(const float logits[3], float out[3]);

}  // namespace mushroom::nn
