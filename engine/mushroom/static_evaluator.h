// The static evaluation alpha-beta scores its leaves with, injected into the
// search (Stockfish's NNUE is the model). The evaluator is told every move
// the search makes and takes back, so an incremental evaluation keeps its
// state (an accumulator) in step with the search's position instead of
// recomputing it at each leaf. Scores are for the side to move, in 1/16
// cells (kEvalScale), the unit of the search's heuristic mode; the exact
// endgame mode never calls the evaluator.
//
// Call order within one search: set_root, then push/pop in stack order (a
// pop takes back the newest push), with evaluate at any point; evaluate's
// position is always the root with the pushed moves applied.
#pragma once
#include <string>

#include "mushroom/movegen.h"
#include "mushroom/position.h"

namespace mushroom {

constexpr int kEvalScale = 16;  // evaluation units per cell of margin

// What one scan of a leaf's legal rectangles finds (best_rectangle_gain):
// the side to move's best immediate margin gain (0 when none is legal) and
// the number of legal rectangles.
struct LeafMoves {
  int best_gain = 0;
  int rectangles = 0;
};
inline LeafMoves scan_leaf_moves(const Position& pos) {
  LeafMoves m;
  m.best_gain = best_rectangle_gain(pos, &m.rectangles);
  return m;
}

// The hand evaluation: the margin plus half the side to move's best
// immediate gain (it can take it first).
inline int hand_evaluation(const Position& pos, int best_gain) {
  return kEvalScale * pos.margin_for_side_to_move() + kEvalScale * best_gain / 2;
}

class StaticEvaluator {
 public:
  virtual ~StaticEvaluator() = default;
  // A search starts from root.
  virtual void set_root(const Position& root) = 0;
  // pos (the position before the move) is about to play move; the pass included.
  virtual void push(const Position& pos, const Move& move) = 0;
  // The newest pushed move is taken back.
  virtual void pop() = 0;
  // pos is the root with the pushed moves applied; moves is its scan of the
  // legal rectangles, which the search has already made.
  virtual int evaluate(const Position& pos, const LeafMoves& moves) = 0;
  // A lower bound of evaluate(pos, m) over every scan m that pos could
  // have, found without scanning: the search cuts off a leaf whose floor
  // already reaches beta and so never looks for its moves. kNoFloor bounds
  // nothing.
  static constexpr int kNoFloor = -(1 << 30);
  virtual int evaluate_floor(const Position&) { return kNoFloor; }
  virtual std::string name() const = 0;
};

// hand_evaluation behind the interface (it keeps no state). The search runs
// the same function inline when given no evaluator.
class HandEvaluator final : public StaticEvaluator {
 public:
  void set_root(const Position&) override {}
  void push(const Position&, const Move&) override {}
  void pop() override {}
  int evaluate(const Position& pos, const LeafMoves& moves) override { return hand_evaluation(pos, moves.best_gain); }
  int evaluate_floor(const Position& pos) override { return hand_evaluation(pos, 0); }
  std::string name() const override { return "hand"; }
};

}  // namespace mushroom
