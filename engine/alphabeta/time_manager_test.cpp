#include "alphabeta/time_manager.h"

#include <gtest/gtest.h>

#include "mushroom/board_gen.h"
#include "mushroom/playout_positions.h"

namespace mushroom {
namespace {

TEST(TimeManager, BudgetsStayInsideTheUsableBank) {
  for (const Position& p : playout_positions(500, 3)) {
    for (double bank : {10000.0, 3000.0, 500.0, 301.0, 50.0}) {
      const MoveBudget b = plan_move_time(bank, p, 20);
      EXPECT_LE(b.soft_ms, b.hard_ms);
      EXPECT_LE(b.hard_ms, std::max(0.0, bank - 300));
      EXPECT_GE(b.soft_ms, 0);
    }
  }
}

TEST(TimeManager, SimulatedGameNeverRunsOutAndSpendsMostOfTheBank) {
  // Spend exactly the hard budget every move (the worst case) over a long game.
  const Position start = random_board(1);
  double bank = 10000;
  Position p = start;
  for (int move = 0; move < 60; ++move) {
    const MoveBudget b = plan_move_time(bank, p, 20);
    bank -= b.hard_ms;
    EXPECT_GE(bank, 299.999);
    // About three mushrooms go per move.
    int removed = 0;
    for (int r = 0; r < kRows && removed < 3; ++r)
      for (int c = 0; c < kCols && removed < 3; ++c)
        if (p.digit(r, c)) p.set_digit(r, c, 0), ++removed;
  }
  // Spending the soft budget over a typical game (about 20 own moves, each
  // with about 5 mushrooms gone, ending near 60 left) uses most of the bank.
  bank = 10000;
  p = start;
  double spent = 0;
  for (int move = 0; move < 21; ++move) {
    const MoveBudget b = plan_move_time(bank, p, 20);
    bank -= b.soft_ms;
    spent += b.soft_ms;
    for (int k = 0, removed = 0; k < kCells && removed < 5; ++k)
      if (p.digit(k / kCols, k % kCols)) p.set_digit(k / kCols, k % kCols, 0), ++removed;
  }
  EXPECT_GT(spent, 7000);
  EXPECT_LT(spent, 9700);
}

// A later expected end spreads the bank over fewer moves; the middle game's
// window and weight are the config's.
TEST(TimeManager, EndEstimateAndMiddleWindowFollowTheConfig) {
  Position p = random_board(3);
  for (int k = 0, removed = 0; k < kCells && removed < kCells - 130; ++k)
    if (p.digit(k / kCols, k % kCols)) p.set_digit(k / kCols, k % kCols, 0), ++removed;
  ASSERT_EQ(p.mushrooms_left(), 130);
  TimeConfig base;
  base.middle_boost = 1.0;
  TimeConfig later = base;
  later.end_mushrooms = 80;
  // (130 - 55) / 5 + 1 = 16 own moves against (130 - 80) / 5 + 1 = 11.
  EXPECT_NEAR(plan_move_time(10000, p, 20, base).soft_ms, 9700 / 16.0, 1e-9);
  EXPECT_NEAR(plan_move_time(10000, p, 20, later).soft_ms, 9700 / 11.0, 1e-9);
  TimeConfig boosted = base;
  boosted.middle_boost = 1.5;
  EXPECT_NEAR(plan_move_time(10000, p, 20, boosted).soft_ms, 1.5 * 9700 / 16.0, 1e-9);
  boosted.middle_min = 130;  // the window is open: 130 left is outside it
  EXPECT_NEAR(plan_move_time(10000, p, 20, boosted).soft_ms, 9700 / 16.0, 1e-9);
}

TEST(TimeManager, ForcedMovesAreQuick) {
  const MoveBudget b = plan_move_time(10000, random_board(2), 1);
  EXPECT_LE(b.hard_ms, 2.0);
}

}  // namespace
}  // namespace mushroom
