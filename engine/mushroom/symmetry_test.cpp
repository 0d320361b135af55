#include "mushroom/symmetry.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"

namespace mushroom {
namespace {

TEST(Symmetry, MovesOfTransformedPositionAreTransformedMoves) {
  for (const Position& p : playout_positions(1500, 9)) {
    MoveList original;
    generate_moves(p, original);
    for (Symmetry s : kAllSymmetries) {
      const Position t = transform(s, p);
      MoveList moved;
      generate_moves(t, moved);
      std::vector<Move> expected, actual(moved.begin(), moved.end());
      for (const Move& m : original) expected.push_back(transform(s, m));
      std::sort(expected.begin(), expected.end());
      std::sort(actual.begin(), actual.end());
      ASSERT_EQ(expected, actual) << "symmetry " << int(s);
      EXPECT_EQ(t.score(kFirst), p.score(kFirst));
      EXPECT_EQ(t.hash(), t.compute_hash_from_scratch());
    }
  }
}

TEST(Symmetry, EachIsItsOwnInverse) {
  for (const Position& p : playout_positions(200, 10)) {
    for (Symmetry s : kAllSymmetries) {
      EXPECT_TRUE(transform(s, transform(s, p)) == p);
    }
  }
  const Move m = Move::rect(1, 2, 3, 4);
  EXPECT_EQ(transform(Symmetry::kFlipRows, m), Move::rect(6, 2, 8, 4));
  EXPECT_EQ(transform(Symmetry::kFlipCols, m), Move::rect(1, 12, 3, 14));
  EXPECT_EQ(transform(Symmetry::kRotate180, m), Move::rect(6, 12, 8, 14));
  EXPECT_EQ(transform(Symmetry::kRotate180, Move::pass()), Move::pass());
}

TEST(Symmetry, ApplyingCommutesWithTransform) {
  for (const Position& p : playout_positions(300, 12)) {
    MoveList list;
    if (generate_moves(p, list) == 0) continue;
    const Move m = list[list.size / 2];
    for (Symmetry s : kAllSymmetries) {
      Position a = p;
      a.apply(m);
      Position b = transform(s, p);
      b.apply(transform(s, m));
      Position ta = transform(s, a);
      EXPECT_EQ(ta.hash(), b.hash());
    }
  }
}

}  // namespace
}  // namespace mushroom
