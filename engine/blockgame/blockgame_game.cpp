#include "blockgame/blockgame_game.h"

#include <algorithm>
#include <stdexcept>

#include "util/rng.h"

namespace mushroom::blockgame {

namespace {

struct Tables {
  std::array<int, kPlacements> slot{};
  std::array<int, kPolicySlots> placement{};
  std::array<std::array<uint8_t, kPlacements>, 8> transformed{};

  Tables() {
    placement.fill(-1);
    const auto& all = placements();
    for (int i = 0; i < kPlacements; ++i) {
      int orientation = 0, anchor = 0;
      if (i < 64) {
        orientation = i % 4;
        anchor = (i / 4 / 4) * kSize + (i / 4) % 4;
      } else if (i < 84) {
        orientation = 4;
        anchor = ((i - 64) / 4) * kSize + (i - 64) % 4;
      } else {
        orientation = 5;
        anchor = ((i - 84) / kSize) * kSize + (i - 84) % kSize;
      }
      slot[size_t(i)] = orientation * kBits + anchor;
      placement[size_t(slot[size_t(i)])] = i;
    }
    for (int s = 0; s < 8; ++s)
      for (int i = 0; i < kPlacements; ++i) {
        const uint32_t image = blockgame::transform(all[size_t(i)], s);
        const auto it = std::find(all.begin(), all.end(), image);
        if (it == all.end()) throw std::logic_error("blockgame: a symmetry maps a placement outside the set");
        transformed[size_t(s)][size_t(i)] = uint8_t(it - all.begin());
      }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

int slot_of_placement(int placement) { return tables().slot[size_t(placement)]; }

int placement_of_slot(int slot) {
  if (slot < 0 || slot >= kPolicySlots) return -1;
  return tables().placement[size_t(slot)];
}

int transform_placement(int placement, int symmetry) { return tables().transformed[size_t(symmetry)][size_t(placement)]; }

int legal_placements(uint32_t filled, uint8_t* out) {
  const auto& all = placements();
  int n = 0;
  for (int i = 0; i < kPlacements; ++i)
    if (!(all[size_t(i)] & filled)) out[n++] = uint8_t(i);
  return n;
}

bool BlockGame::is_terminal(const State& s) {
  for (uint32_t p : placements())
    if (!(p & s.filled)) return false;
  return true;
}

uint64_t BlockGame::hash(const State& s) {
  uint64_t x = s.filled;
  return Rng::splitmix64(x);
}

void BlockGame::encode(const State& s, float* out, int version) {
  constexpr int N = kSize;
  // Cells of each orientation relative to its anchor (row, col): the L
  // missing its 2x2 square's top-left, top-right, bottom-left, bottom-right
  // cell, then the horizontal and the vertical domino.
  static constexpr int kShape[kOrientations][3][2] = {
      {{0, 1}, {1, 0}, {1, 1}}, {{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {0, 1}, {1, 1}},
      {{0, 0}, {0, 1}, {1, 0}}, {{0, 0}, {0, 1}, {0, 1}}, {{0, 0}, {1, 0}, {1, 0}}};  // a domino repeats a cell
  const uint32_t filled = s.filled;
  std::fill(out, out + feature_planes(version) * kBits, 0.0f);
  for (int cell = 0; cell < kBits; ++cell) {
    const float f = (filled >> cell & 1) ? 1.0f : 0.0f;
    out[cell] = f;
    out[kBits + cell] = 1.0f - f;
    out[2 * kBits + cell] = 1.0f;
  }
  if (version == 1) return;
  uint32_t covered = 0;  // cells some legal placement covers
  for (int cell = 0; cell < kBits; ++cell) {
    for (int o = 0; o < kOrientations; ++o) {
      uint32_t mask = 0;
      bool fits = true;
      for (const auto& rc : kShape[o]) {
        const int r = cell / N + rc[0], c = cell % N + rc[1];
        if (r >= N || c >= N) fits = false;
        else mask |= 1u << (r * N + c);
      }
      if (!fits || (mask & filled)) continue;
      out[(3 + o) * kBits + cell] = 1.0f;
      covered |= mask;
    }
  }
  for (int cell = 0; cell < kBits; ++cell)
    if (!(filled >> cell & 1) && !(covered >> cell & 1)) out[9 * kBits + cell] = 1.0f;
}

}  // namespace mushroom::blockgame
