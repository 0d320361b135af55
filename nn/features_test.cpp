#include "nn/features.h"

#include <gtest/gtest.h>

#include <vector>

#include "mushroom/playout_positions.h"
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

}  // namespace
}  // namespace mushroom::nn
