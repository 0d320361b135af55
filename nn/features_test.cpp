#include "nn/features.h"

#include <gtest/gtest.h>

#include <vector>

#include "mushroom/playout_positions.h"
#include "blockgame/blockgame_game.h"
#include "mushroom/symmetry.h"
#include "util/rng.h"

namespace mushroom::nn {
namespace {

std::vector<float> planes_of(const Position& p) {
  std::vector<float> f(kInputSize);
  encode_features(p, f.data());
  return f;
}

TEST(Features, OneHotGroupsAndConstantsOnPlayoutPositions) {
  for (const Position& p : playout_positions(300, 5)) {
    const auto f = planes_of(p);
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        const int cell = r * kCols + c;
        float digits = 0, owners = 0;
        for (int k = 0; k < 10; ++k) digits += f[k * kCells + cell];
        for (int k = 10; k < 13; ++k) owners += f[k * kCells + cell];
        ASSERT_EQ(digits, 1.0f);
        ASSERT_EQ(owners, 1.0f);
        const int d = p.digit(r, c);
        EXPECT_EQ(f[(d ? d - 1 : 9) * kCells + cell], 1.0f);
        const Owner o = p.owner(r, c);
        const bool mine = o != Owner::kNone && int(o) - 1 == int(p.to_move());
        const bool theirs = o != Owner::kNone && !mine;
        EXPECT_EQ(f[10 * kCells + cell], mine ? 1.0f : 0.0f);
        EXPECT_EQ(f[11 * kCells + cell], theirs ? 1.0f : 0.0f);
        EXPECT_EQ(f[13 * kCells + cell], p.to_move() == kSecond ? 1.0f : 0.0f);
        EXPECT_EQ(f[14 * kCells + cell], p.last_move_was_pass() ? 1.0f : 0.0f);
        EXPECT_FLOAT_EQ(f[15 * kCells + cell], p.mushrooms_left() / 170.0f);
        EXPECT_EQ(f[16 * kCells + cell], 1.0f);
      }
  }
}

TEST(Features, OwnershipPlanesFollowTheSideToMove) {
  Position p = playout_positions(1, 11)[0];
  p.set_owner(0, 0, Owner::kFirst);
  p.set_to_move(kFirst);
  EXPECT_EQ(planes_of(p)[10 * kCells + 0], 1.0f);
  p.set_to_move(kSecond);
  EXPECT_EQ(planes_of(p)[11 * kCells + 0], 1.0f);
  EXPECT_EQ(planes_of(p)[13 * kCells + 0], 1.0f);
}

TEST(Features, SymmetryMovesPlanesWithTheBoard) {
  for (const Position& p : playout_positions(50, 8)) {
    const auto f = planes_of(p);
    for (Symmetry s : kAllSymmetries) {
      const auto g = planes_of(transform(s, p));
      for (int k = 0; k < kInputPlanes; ++k)
        for (int r = 0; r < kRows; ++r)
          for (int c = 0; c < kCols; ++c) {
            int tr = r, tc = c;
            transform_cell(s, tr, tc);
            ASSERT_EQ(f[k * kCells + r * kCols + c], g[k * kCells + tr * kCols + tc]);
          }
    }
  }
}

// Planes 3..8 mark exactly the legal placements' policy slots, and plane 9
// the empty cells no legal placement covers, on random reachable positions.
TEST(BlockgameFeatures, LegalPlacementPlanesMatchTheGame) {
  constexpr int kCellsHere = kBlockgameSize * kBlockgameSize;
  Rng rng(11);
  uint8_t legal[blockgame::kPlacements];
  int positions = 0;
  for (int game = 0; game < 60; ++game) {
    uint32_t filled = 0;
    for (int n; (n = blockgame::legal_placements(filled, legal)) >= 0;) {
      std::vector<float> planes(kBlockgamePlanes * kCellsHere);
      encode_blockgame_features(filled, planes.data());
      std::vector<float> expected(size_t(blockgame::kPolicySlots), 0.0f);
      uint32_t covered = 0;
      for (int i = 0; i < n; ++i) {
        expected[size_t(blockgame::slot_of_placement(legal[i]))] = 1.0f;
        covered |= blockgame::placements()[legal[i]];
      }
      for (int slot = 0; slot < blockgame::kPolicySlots; ++slot)
        ASSERT_EQ(planes[size_t(3 * kCellsHere + slot)], expected[size_t(slot)]) << "slot " << slot;
      for (int cell = 0; cell < kCellsHere; ++cell) {
        const bool dead = !(filled >> cell & 1) && !(covered >> cell & 1);
        ASSERT_EQ(planes[size_t(9 * kCellsHere + cell)], dead ? 1.0f : 0.0f) << "cell " << cell;
        ASSERT_EQ(planes[size_t(cell)], (filled >> cell & 1) ? 1.0f : 0.0f);
      }
      ++positions;
      if (n == 0) break;
      filled |= blockgame::placements()[legal[rng.uniform(uint32_t(n))]];
    }
  }
  EXPECT_GT(positions, 500);
}

// Layout 1 (the nets before legal-placement planes) is layout 2's first three planes.
TEST(BlockgameFeatures, LayoutOneIsTheFirstThreePlanes) {
  EXPECT_EQ(blockgame_planes(1), 3);
  EXPECT_EQ(blockgame_planes(2), kBlockgamePlanes);
  EXPECT_EQ(blockgame_planes(3), 0);
  for (uint32_t filled : {0u, 0x1234567u & 0x1ffffffu, 0x0f0f0f0u}) {
    std::vector<float> v1(3 * 25, -1.0f), v2(kBlockgamePlanes * 25);
    encode_blockgame_features(filled, v1.data(), 1);
    encode_blockgame_features(filled, v2.data(), 2);
    EXPECT_EQ(v1, std::vector<float>(v2.begin(), v2.begin() + 3 * 25));
  }
}

}  // namespace
}  // namespace mushroom::nn
