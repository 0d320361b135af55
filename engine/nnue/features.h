// The learned evaluation's input features (network.h draws the net): each
// cell's state, one feature per cell and one per three cells side by side in
// a row or one above another in a column; and which of them a move changes,
// so that the evaluator updates its accumulators by the rows of those only.
#pragma once
#include <algorithm>
#include <cstdint>

#include "mushroom/move.h"
#include "mushroom/position.h"

namespace mushroom::nnue {

// A cell's state for perspective p (the first or the second player's view):
// the digit - 1 (0..8) while it holds a mushroom, else kNobody, kMine (p
// owns it) or kTheirs (p's opponent owns it).
constexpr int kCellStates = 12;
constexpr int kNobody = 9, kMine = 10, kTheirs = 11;
constexpr int kCellFeatures = 170 * kCellStates;
constexpr int kTripleFeatures = kCellStates * kCellStates * kCellStates;
constexpr int kRowTripleBase = kCellFeatures;
constexpr int kColumnTripleBase = kRowTripleBase + kTripleFeatures;
constexpr int kFeatures = kColumnTripleBase + kTripleFeatures;
// Active per perspective: 170 cells, 10 rows of 15 triples, 17 columns of 8.
constexpr int kActiveFeatures = 170 + 10 * 15 + 17 * 8;

int cell_state(const Position& pos, int r, int c, Player p);
// The feature of a cell for perspective p: cell * 12 + its state.
int cell_feature(const Position& pos, int r, int c, Player p);
// The features of three cells' states in a row or in a column.
inline int row_triple(int s0, int s1, int s2) { return kRowTripleBase + (s0 * kCellStates + s1) * kCellStates + s2; }
inline int column_triple(int s0, int s1, int s2) {
  return kColumnTripleBase + (s0 * kCellStates + s1) * kCellStates + s2;
}
// Every active feature of perspective p (kActiveFeatures of them): the
// cells, then the row triples, then the column triples.
void active_features(const Position& pos, Player p, int* out);

// The mobility inputs (network.h) of a position with `rectangles` legal
// rectangles into out[0..kMobilityInputs): `one` where an input is on, 0
// where it is off (1 in float, 127 in the integer runtime).
template <typename T>
void mobility_inputs(int rectangles, T one, T* out) {
  constexpr int kSteps[8] = {1, 2, 3, 5, 9, 17, 33, 65};
  for (int i = 0; i < 8; ++i) out[i] = rectangles >= kSteps[i] ? one : T(0);
  out[8] = rectangles % 2 == 1 ? one : T(0);
}

// Every cell's state in the first player's view, kRows rows of
// kStateStride bytes (the padding zero); the second player's view is the
// same with kMine and kTheirs swapped.
constexpr int kStateStride = 32;
constexpr int kStatesSize = kRows * kStateStride;
void first_view_states(const Position& pos, uint8_t* states);

// The features a move changes, in both views at once. A feature of cells
// nobody owns has the same index in both views: it is listed once, in
// removed_both, and its row is read once for the two.
struct FeatureChanges {
  int removed_both[kActiveFeatures];
  int removed[2][kActiveFeatures];
  int added[2][kActiveFeatures];
  int n_removed_both = 0, n_removed = 0, n_added = 0;  // removed[p] and added[p] hold n_removed and n_added
};

namespace detail {

// A cell's state in the other player's view: kMine and kTheirs swap, the
// rest stay (s ^ 1 for 10 and 11, s for 0..9).
constexpr int other_view_state(int s) { return s ^ ((s + 6) >> 4); }
static_assert(other_view_state(kMine) == kTheirs && other_view_state(kTheirs) == kMine &&
              other_view_state(kNobody) == kNobody && other_view_state(0) == 0 && other_view_state(8) == 8);

// A triple's index s0 * 144 + s1 * 12 + s2 in the other player's view.
struct OtherViewTriples {
  uint16_t at[kTripleFeatures];
};
constexpr OtherViewTriples make_other_view_triples() {
  OtherViewTriples t{};
  for (int i = 0; i < kTripleFeatures; ++i) {
    const int s0 = i / (kCellStates * kCellStates), s1 = i / kCellStates % kCellStates, s2 = i % kCellStates;
    t.at[i] = uint16_t((other_view_state(s0) * kCellStates + other_view_state(s1)) * kCellStates +
                       other_view_state(s2));
  }
  return t;
}
inline constexpr OtherViewTriples kOtherViewTriple = make_other_view_triples();

}  // namespace detail

// `now` starts as a copy of the states `was`; the rectangle that `mover`
// takes with `move` (not a pass) is written into it, and the
// features that change are listed: the rectangle's cells and every triple
// with a cell in it, cells first, then row triples, then column triples.
// Inline: it runs at every ply the evaluator brings up to date, and the
// call measured 2-3% of the exported bot's nodes a second.
inline void move_changes(const uint8_t* was, uint8_t* now, const Move& move, Player mover, FeatureChanges& out) {
  // Every cell of the rectangle ends empty and owned by the mover: kMine in
  // the mover's view, so in the first player's view kMine when the first
  // player moves, else kTheirs.
  const uint8_t taken = uint8_t(mover == kFirst ? kMine : kTheirs);
  for (int r = move.r1; r <= move.r2; ++r) std::fill_n(now + r * kStateStride + move.c1, move.c2 - move.c1 + 1, taken);

  // The second view's states are the first's with kMine and kTheirs swapped.
  int n_both = 0, n_removed = 0, n_added = 0;
  const auto change = [&](int before0, int after0, int before1, int after1) {
    if (before0 == after0) return;  // then before1 == after1 too: the swap is one-to-one
    const bool same = before0 == before1;
    out.removed_both[n_both] = before0;
    out.removed[0][n_removed] = before0;
    out.removed[1][n_removed] = before1;
    n_both += same;
    n_removed += !same;
    out.added[0][n_added] = after0;
    out.added[1][n_added++] = after1;
  };
  const auto at = [](const uint8_t* board, int r, int c) { return int(board[r * kStateStride + c]); };
  for (int r = move.r1; r <= move.r2; ++r)
    for (int c = move.c1; c <= move.c2; ++c) {
      const int cell = (r * kCols + c) * kCellStates, before = at(was, r, c), after = at(now, r, c);
      change(cell + before, cell + after, cell + detail::other_view_state(before), cell + detail::other_view_state(after));
    }
  // The triples that change are those with a cell in the rectangle: in its
  // rows, starting up to two columns left of it; in its columns, up to two
  // rows above. Along each line the three states roll on one cell a step.
  const auto line = [&](int base, const uint8_t* w, const uint8_t* n, int step, int triples) {
    int w0 = w[0], w1 = w[step], n0 = n[0], n1 = n[step];
    for (int i = 0; i < triples; ++i) {
      const int w2 = w[(i + 2) * step], n2 = n[(i + 2) * step];
      const int before = (w0 * kCellStates + w1) * kCellStates + w2;
      const int after = (n0 * kCellStates + n1) * kCellStates + n2;
      change(base + before, base + after, base + detail::kOtherViewTriple.at[before], base + detail::kOtherViewTriple.at[after]);
      w0 = w1, w1 = w2, n0 = n1, n1 = n2;
    }
  };
  const int r_lo = std::max(0, int(move.r1) - 2), c_lo = std::max(0, int(move.c1) - 2);
  const int row_last = std::min(kCols - 3, int(move.c2)), column_last = std::min(kRows - 3, int(move.r2));
  for (int r = move.r1; r <= move.r2; ++r)
    line(kRowTripleBase, was + r * kStateStride + c_lo, now + r * kStateStride + c_lo, 1, row_last - c_lo + 1);
  for (int c = move.c1; c <= move.c2; ++c)
    line(kColumnTripleBase, was + r_lo * kStateStride + c, now + r_lo * kStateStride + c, kStateStride,
         column_last - r_lo + 1);
  out.n_removed_both = n_both;
  out.n_removed = n_removed;
  out.n_added = n_added;
}


}  // namespace mushroom::nnue
