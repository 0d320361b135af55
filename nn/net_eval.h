// What a network evaluation returns, and the interface every runtime offers
// the search: a batch of encoded positions, each with the policy slots it
// wants logits for. Queries are game-free: the caller encodes the position
// (nn/features.h for the mushroom game, the adapter's encode() for others)
// and names moves by their policy index (Move::index(), action_index()).
#pragma once
#include "util/span.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mushroom::nn {

struct NetQuery {
  const float* planes;   // input_planes(config) * rows * cols floats, channel-major
  const int32_t* slots;  // the policy indices to score (legal moves, the pass included)
  int num_slots;
  bool want_ownership = false;
};

struct NetEval {
  float wdl[3] = {0, 0, 0};     // win/draw/loss probabilities for the side to move
  float margin = 0;             // expected final margin (cells) for the side to move
  std::vector<float> logits;    // one per queried move, before the softmax
  std::vector<float> ownership; // one value per cell in [-1, 1] when asked for

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
