#include "seeds/chess_grundy.h"

#include <gtest/gtest.h>

#include "mushroom/position_io.h"
#include "solvers/grundy.h"

namespace mushroom::chess_grundy {
namespace {

// Every closed form against the brute-force mex table on all cells < 64.
TEST(ChessGrundy, ClosedFormsMatchBruteForceTables) {
  for (char piece : {'R', 'B', 'K', 'N', 'P'}) {
    const auto table = grundy_table_2d(64, [piece](int x, int y, const std::function<void(int, int)>& visit) {
      for_each_move(piece, x, y, visit);
    });
    for (int x = 0; x < 64; ++x)
      for (int y = 0; y < 64; ++y)
        ASSERT_EQ(grundy(piece, uint64_t(x), uint64_t(y)), table[size_t(x)][size_t(y)])
            << piece << " at (" << x << ", " << y << ")";
  }
}

TEST(ChessGrundy, HandWorkedGames) {
  EXPECT_EQ(solve_judge_input("1\n0 0 R\n", false), "cubelover\n");  // no move at all
  EXPECT_EQ(solve_judge_input("1\n5 0 R\n", false), "koosaga\n");    // one heap of 5
  EXPECT_EQ(solve_judge_input("2\n3 4 K\n3 4 K\n", false), "cubelover\n");  // a pair cancels
  // Bishop (7, 3) is worth min = 3 and rook (1, 2) 1 ^ 2 = 3: they cancel.
  EXPECT_EQ(solve_judge_input("2\n7 3 B\n1 2 R\n", false), "cubelover\n");
  // Bishop (7, 2) = 2 and rook (9, 2) = 11: 2 ^ 11 = 9, a win.
  EXPECT_EQ(solve_judge_input("2\n7 2 B\n9 2 R\n", false), "koosaga\n");
}

TEST(ChessGrundy, LargeCoordinatesAndPalaceOnly) {
  // Rook at (10^9-1, 10^9-1): x ^ y = 0.
  EXPECT_EQ(solve_judge_input("1\n999999999 999999999 R\n", false), "cubelover\n");
  EXPECT_EQ(solve_judge_input("1\n999999999 0 B\n", false), "cubelover\n");
  EXPECT_EQ(solve_judge_input("1\n1 1 P\n", false), "koosaga\n");  // g = 2
  EXPECT_EQ(solve_judge_input("2\n1 1\n2 0\n", true), "cubelover\n");  // 2 ^ 2 = 0
  // Palace (2999, 2999): 3 * (999 ^ 999) + 5998 % 3 = 1, a win.
  EXPECT_EQ(solve_judge_input("1\n2999 2999\n", true), "koosaga\n");
}

TEST(ChessGrundy, BadInputNamesTheProblem) {
  try {
    solve_judge_input("2\n1 2 R\n3 4 Q\n", false);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3: expected a piece R, B, K, N or P, got 'Q'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(solve_judge_input("1\n-1 2 R\n", false), ParseError);
  EXPECT_THROW(solve_judge_input("1\n3000 2\n", true), ParseError);
  EXPECT_THROW(solve_judge_input("2\n1 2 R\n", false), ParseError);
  EXPECT_THROW(solve_judge_input("1\n1 2 R\nextra\n", false), ParseError);
}

}  // namespace
}  // namespace mushroom::chess_grundy
