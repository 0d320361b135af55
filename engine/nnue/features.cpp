#include "nnue/features.h"

#include <algorithm>

namespace mushroom::nnue {

static_assert(kRows * kCols == 170 && kActiveFeatures == kCells + kRows * (kCols - 2) + kCols * (kRows - 2),
              "the feature counts are for the 10x17 board");

namespace {

// The states of every cell for one perspective.
struct CellStates {
  uint8_t s[kRows][kCols];
};

void fill_states(const Position& pos, Player p, CellStates& out) {
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) out.s[r][c] = uint8_t(cell_state(pos, r, c, p));
}

}  // namespace

int cell_state(const Position& pos, int r, int c, Player p) {
  const int d = pos.digit(r, c);
  if (d) return d - 1;
  const Owner o = pos.owner(r, c);
  return o == Owner::kNone ? kNobody : (int(o) - 1 == int(p) ? kMine : kTheirs);
}

int cell_feature(const Position& pos, int r, int c, Player p) {
  return (r * kCols + c) * kCellStates + cell_state(pos, r, c, p);
}

void active_features(const Position& pos, Player p, int* out) {
  CellStates st;
  fill_states(pos, p, st);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) *out++ = (r * kCols + c) * kCellStates + st.s[r][c];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c + 2 < kCols; ++c) *out++ = row_triple(st.s[r][c], st.s[r][c + 1], st.s[r][c + 2]);
  for (int c = 0; c < kCols; ++c)
    for (int r = 0; r + 2 < kRows; ++r) *out++ = column_triple(st.s[r][c], st.s[r + 1][c], st.s[r + 2][c]);
}

void first_view_states(const Position& pos, uint8_t* states) {
  std::fill(states, states + kStatesSize, uint8_t(0));
  CellStates st;
  fill_states(pos, kFirst, st);
  for (int r = 0; r < kRows; ++r) std::copy(st.s[r], st.s[r] + kCols, states + r * kStateStride);
}

}  // namespace mushroom::nnue
