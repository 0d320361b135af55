// The learned evaluation's shape: the six numbers that say how big each of
// its layers is and which inputs and stacks it has (network.h draws the
// whole net). Held once by every type that has a shape (the weights, the
// integer evaluator, the training config, the LibTorch twin) and passed
// whole; two shapes are compared with ==, never as text.
#pragma once
#include <string>

namespace mushroom::nnue {

constexpr int kFlagInputs = 2;       // last_move_was_pass, mover_moved_first
constexpr int kMobilityInputs = 9;   // the rectangle count's thermometer (8) and parity
constexpr int kMaxPhaseBuckets = 8;
constexpr int kPhaseSpan = 112;      // mushrooms taken over which the phase bands lie

struct Shape {
  int hidden = 64;        // H, the transformer's units: a multiple of 16, 16..512
  int l1 = 16;            // 1..64
  int l2 = 16;            // 1..64
  int phase_buckets = 1;  // 1..kMaxPhaseBuckets
  int seat_buckets = 1;   // 1 or 2
  bool mobility = false;  // kMobilityInputs more dense inputs (network.h)

  // Written out: the exported bot is plain C++17 (no defaulted ==).
  bool operator==(const Shape& o) const {
    return hidden == o.hidden && l1 == o.l1 && l2 == o.l2 && phase_buckets == o.phase_buckets &&
           seat_buckets == o.seat_buckets && mobility == o.mobility;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  // The dense stacks: phase_buckets x seat_buckets (1: no buckets).
  int stacks() const { return phase_buckets * seat_buckets; }
  // The first dense layer's inputs: 2H + kFlagInputs, and the mobility inputs.
  int dense_inputs() const { return 2 * hidden + kFlagInputs + (mobility ? kMobilityInputs : 0); }
  // The stack a position uses (network.h, "buckets"): the phase by the
  // mushrooms taken so far in equal bands of the first kPhaseSpan, the
  // seat (with seat_buckets 2) by whether the side to move moved first.
  int bucket(int mushrooms_left, bool mover_moved_first) const {
    const int taken = 170 - mushrooms_left;
    int phase = taken * phase_buckets / kPhaseSpan;
    if (phase >= phase_buckets) phase = phase_buckets - 1;
    if (phase < 0) phase = 0;
    return (seat_buckets == 2 && !mover_moved_first ? phase_buckets : 0) + phase;
  }
  // "H=64 L1=16 L2=16", with ", 4 phase x 2 seat buckets" when it has them
  // and ", mobility inputs" when it has those.
  std::string to_string() const {
    std::string s = "H=" + std::to_string(hidden) + " L1=" + std::to_string(l1) + " L2=" + std::to_string(l2);
    if (stacks() > 1)
      s += ", " + std::to_string(phase_buckets) + " phase x " + std::to_string(seat_buckets) + " seat buckets";
    if (mobility) s += ", mobility inputs";
    return s;
  }
};

}  // namespace mushroom::nnue
