#include "seeds/digits_square_board.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "mushroom/position_io.h"
#include "util/rng.h"

namespace mushroom::digits_square_board {
namespace {

TEST(DigitsSquareBoard, JudgeSample) {
  EXPECT_EQ(solve_judge_input("2\n3\n2 7 5\n2 7 5\n7 7 7\n2\n4 3\n1 2\n"), "Second\nFirst\n");
}

TEST(DigitsSquareBoard, HandWorkedCases) {
  // The 2x2 sample worked by hand: [4 3] and [1 2] are each worth 1 (one cut
  // into two dead cells), [3;2] is dead: the cuts give 1^1 = 0 and 1^0 = 1,
  // so the board is worth mex{0, 1} = 2.
  EXPECT_EQ(grundy({{4, 3}, {1, 2}}), 2u);
  EXPECT_EQ(grundy({{1}}), 0u);          // one cell: no cut
  // [1 2; 3 5]: only the 1 is cuttable. [1 2] and [1; 3] are worth 1 (one
  // cut into dead cells); every cut of the whole board leaves one of those
  // beside a dead part: mex{1 ^ 0} = 0, so the first player loses.
  EXPECT_EQ(grundy({{1, 2}, {3, 5}}), 0u);
  EXPECT_THROW(grundy({{1, 1}}), std::invalid_argument);  // not square
  EXPECT_EQ(grundy({{2, 3}, {5, 7}}), 0u);  // only primes: cannot be cut
  // Digits may come without spaces.
  EXPECT_EQ(solve_judge_input("1\n2\n43\n12\n"), "First\n");
}

// Independent slow solver: the real game on a multiset of boards, plain
// minimax with memo, no Grundy theory.
using Rect = std::array<int, 4>;
bool slow_first_wins(std::vector<Rect> boards, const std::vector<std::vector<int>>& g,
                     std::map<std::vector<Rect>, bool>& memo) {
  std::sort(boards.begin(), boards.end());
  if (auto it = memo.find(boards); it != memo.end()) return it->second;
  bool won = false;
  for (size_t i = 0; i < boards.size() && !won; ++i) {
    const auto [r1, c1, r2, c2] = boards[i];
    bool cuttable = false;
    for (int r = r1; r <= r2; ++r)
      for (int c = c1; c <= c2; ++c) {
        const int d = g[size_t(r)][size_t(c)];
        cuttable |= d == 1 || d == 4 || d == 6 || d == 8 || d == 9;
      }
    if (!cuttable) continue;
    auto try_cut = [&](Rect a, Rect b) {
      std::vector<Rect> next = boards;
      next.erase(next.begin() + long(i));
      next.push_back(a);
      next.push_back(b);
      if (!slow_first_wins(next, g, memo)) won = true;
    };
    for (int k = r1; k < r2 && !won; ++k) try_cut({r1, c1, k, c2}, {k + 1, c1, r2, c2});
    for (int k = c1; k < c2 && !won; ++k) try_cut({r1, c1, r2, k}, {r1, k + 1, r2, c2});
  }
  memo[boards] = won;
  return won;
}

TEST(DigitsSquareBoard, AgreesWithSlowMinimaxOnRandomSmallBoards) {
  Rng rng(8);
  for (int t = 0; t < 60; ++t) {
    const int n = 1 + int(rng.uniform(3));
    std::vector<std::vector<int>> g(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(n)));
    for (auto& row : g)
      for (int& d : row) d = rng.uniform(3) == 0 ? int(1 + rng.uniform(9)) : int(std::array{2, 3, 5, 7}[rng.uniform(4)]);
    std::map<std::vector<Rect>, bool> memo;
    EXPECT_EQ(first_player_wins(g), slow_first_wins({{0, 0, n - 1, n - 1}}, g, memo)) << "case " << t;
  }
}

TEST(DigitsSquareBoard, BadInputNamesTheProblem) {
  try {
    solve_judge_input("1\n2\n4 0\n1 2\n");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3: expected a digit 1-9, got '0'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(solve_judge_input("1\n31\n"), ParseError);
  EXPECT_THROW(solve_judge_input("1\n2\n4 3\n"), ParseError);
}

}  // namespace
}  // namespace mushroom::digits_square_board
