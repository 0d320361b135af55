// Fast legal-move enumeration for the mushroom game.
//
// For a band of rows r1..r2, let s[c] be the band's column sums. A rectangle
// on that band spans whole columns, so it sums to 10 only if every column in
// it has s[c] <= 10 ("small"), and it needs a mushroom of row r1 and one of
// row r2 inside it. s only grows with r2, so once no mushroom of row r1 sits
// in a small column, no deeper band from that r1 holds a move.
//
// Within a band, with prefix sums P, columns c1..c2 sum to 10 exactly when
// P[c2+1] == P[c1] + 10. Only non-empty columns can be sides, and their sums
// are >= 1, so each left side has at most one right side. Kernels find all
// left sides at once: SIMD membership tests of P + 10 in P (AVX2, AVX-512BW),
// or a two-pointer sweep (scalar).
#pragma once
#include <array>

#include "mushroom/position.h"

namespace mushroom {

// At most one right edge per (r1, r2, c1): 55 * 17 = 935 rectangles.
constexpr int kMaxMoves = 1024;

struct MoveList {
  // The moves stay unwritten until generated: a list is 4 KB, and alpha-beta
  // makes one at every node, where writing it first cost a tenth of the search.
  MoveList() {}
  union {
    Move moves[kMaxMoves];
  };
  int size = 0;
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  const Move& operator[](int i) const { return moves[i]; }
  void push(const Move& m) { moves[size++] = m; }
};

// Fills list with every legal rectangle (never the pass), ordered by
// (r1, r2, c1). Returns the count. An ended game has no moves.
int generate_moves(const Position& pos, MoveList& list);

// True when at least one rectangle is legal (cheaper than generating).
bool has_any_move(const Position& pos);

// The largest change in the side to move's score margin over every legal
// rectangle (the cells it did not own, plus the opponent's cells counted
// twice), 0 when none is legal: what generating the moves and scoring each
// gives, without writing the list (the leaves of alpha-beta need only this).
// count, when given, receives the number of legal rectangles.
int best_rectangle_gain(const Position& pos, int* count = nullptr);
// The largest margin_gain (position.h) over every legal move of pos.
inline int best_margin_gain(const Position& pos) { return best_rectangle_gain(pos); }
// The largest margin_gain among n moves (0 when none gains).
inline int best_margin_gain(const Position& pos, const Move* moves, int n) {
  int best = 0;
  for (int i = 0; i < n; ++i) {
    const int gain = margin_gain(pos, moves[i]);
    if (gain > best) best = gain;
  }
  return best;
}

// The kernels, all giving identical lists. generate_moves uses the best one
// the CPU supports, chosen once at start-up.
enum class MovegenKernel { kScalar, kAvx2, kAvx512 };
bool kernel_supported(MovegenKernel kernel);
MovegenKernel best_kernel();
const char* kernel_name(MovegenKernel kernel);
int generate_moves_with(MovegenKernel kernel, const Position& pos, MoveList& list);
int best_rectangle_gain_with(MovegenKernel kernel, const Position& pos, int* count = nullptr);

}  // namespace mushroom
