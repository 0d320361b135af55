// Alpha-beta's moves best first, put in order only as far as the search
// gets. Most nodes cut off after their first move or two, so the first few
// are found by selection and the rest sorted only when a node goes on past
// them. The order is exactly that of sorting them all: by key, highest
// first, equal keys in generation order (the index).
#pragma once
#include <algorithm>

#include "mushroom/move.h"
#include "mushroom/movegen.h"

namespace mushroom {

struct KeyedMove {
  int key, index, steals;
  Move move;
};

// Room for a node's keyed moves, left unwritten until keyed (16 KB: writing
// it first would cost more than the node's search).
struct KeyedMoves {
  KeyedMoves() {}
  union {
    KeyedMove at[kMaxMoves + 1];  // the generated moves and the pass
  };
};

class MovePicker {
 public:
  MovePicker(KeyedMove* moves, int n) : moves_(moves), n_(n) {}

  // The order: higher key first, equal keys by index.
  static bool before(const KeyedMove& a, const KeyedMove& b) {
    return a.key != b.key ? a.key > b.key : a.index < b.index;
  }

  // The i-th move in the order; called with i = 0, 1, 2, ... in turn.
  // Afterwards moves[0..i] hold the moves picked so far, in order.
  const KeyedMove& pick(int i) {
    if (i < kSelected) {
      int best = i;
      for (int j = i + 1; j < n_; ++j)
        if (before(moves_[j], moves_[best])) best = j;
      std::swap(moves_[i], moves_[best]);
    } else if (i == kSelected) {
      std::sort(moves_ + i, moves_ + n_, before);
    }
    return moves_[i];
  }

 private:
  static constexpr int kSelected = 3;  // moves found by selection before the rest is sorted
  KeyedMove* moves_;
  int n_;
};

}  // namespace mushroom
