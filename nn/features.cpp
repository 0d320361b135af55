#include "nn/features.h"

#include <algorithm>

namespace mushroom::nn {

void encode_features(const Position& pos, float* out) {
  std::fill(out, out + kInputSize, 0.0f);
  const Player me = pos.to_move();
  const Player them = Player(1 - me);
  const float second = me == kSecond ? 1.0f : 0.0f;
  const float passed = pos.last_move_was_pass() ? 1.0f : 0.0f;
  const float phase = float(pos.mushrooms_left()) / float(kCells);
  for (int r = 0; r < kRows; ++r) {
    const uint32_t mine = pos.owned_mask(me, r), theirs = pos.owned_mask(them, r);
    for (int c = 0; c < kCols; ++c) {
      const int cell = r * kCols + c;
      const int d = pos.digit(r, c);
      out[(d > 0 ? d - 1 : 9) * kCells + cell] = 1.0f;
      const int owner_plane = (mine >> c & 1) ? 10 : (theirs >> c & 1) ? 11 : 12;
      out[owner_plane * kCells + cell] = 1.0f;
      out[13 * kCells + cell] = second;
      out[14 * kCells + cell] = passed;
      out[15 * kCells + cell] = phase;
      out[16 * kCells + cell] = 1.0f;
    }
  }
}

int blockgame_planes(int feature_version) {
  return feature_version == 1 ? 3 : feature_version == 2 ? kBlockgamePlanes : 0;
}

void encode_blockgame_features(uint32_t filled, float* out, int feature_version) {
  constexpr int N = kBlockgameSize, kCellsHere = N * N;
  // Cells of each orientation relative to its anchor (row, col): the L
  // missing its 2x2 square's top-left, top-right, bottom-left, bottom-right
  // cell, then the horizontal and the vertical domino.
  static constexpr int kShape[kBlockgameOrientations][3][2] = {
      {{0, 1}, {1, 0}, {1, 1}}, {{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {0, 1}, {1, 1}},
      {{0, 0}, {0, 1}, {1, 0}}, {{0, 0}, {0, 1}, {0, 1}}, {{0, 0}, {1, 0}, {1, 0}}};  // a domino repeats a cell
  std::fill(out, out + blockgame_planes(feature_version) * kCellsHere, 0.0f);
  for (int cell = 0; cell < kCellsHere; ++cell) {
    const float f = (filled >> cell & 1) ? 1.0f : 0.0f;
    out[cell] = f;
    out[kCellsHere + cell] = 1.0f - f;
    out[2 * kCellsHere + cell] = 1.0f;
  }
  if (feature_version == 1) return;
  uint32_t covered = 0;  // cells some legal placement covers
  for (int cell = 0; cell < kCellsHere; ++cell) {
    for (int o = 0; o < kBlockgameOrientations; ++o) {
      uint32_t mask = 0;
      bool fits = true;
      for (const auto& rc : kShape[o]) {
        const int r = cell / N + rc[0], c = cell % N + rc[1];
        if (r >= N || c >= N) fits = false;
        else mask |= 1u << (r * N + c);
      }
      if (!fits || (mask & filled)) continue;
      out[(3 + o) * kCellsHere + cell] = 1.0f;
      covered |= mask;
    }
  }
  for (int cell = 0; cell < kCellsHere; ++cell)
    if (!(filled >> cell & 1) && !(covered >> cell & 1)) out[9 * kCellsHere + cell] = 1.0f;
}

}  // namespace mushroom::nn
