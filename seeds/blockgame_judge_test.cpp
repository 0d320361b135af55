#include "seeds/blockgame_judge.h"

#include <gtest/gtest.h>

#include <string>

#include "util/parse_error.h"

namespace mushroom::blockgame {
namespace {

TEST(BlockgameJudge, OfficialSample) {
  const std::string input =
      "3\n.....\n.##..\n##..#\n#.###\n..#..\n.....\n.....\n.....\n.....\n.....\n#..##\n##.##\n##.##\n#...#\n##.##\n";
  EXPECT_EQ(solve_judge_input(input), "WINNING\nLOSING\nWINNING\n");
}

TEST(BlockgameJudge, BadBoardsNameTheProblem) {
  try {
    solve_judge_input("1\n.....\n..x..\n.....\n.....\n.....\n");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("board 1: board row 2, column 3: expected '#' or '.', got 'x'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(solve_judge_input("2\n.....\n.....\n.....\n.....\n.....\n"), ParseError);
}

}  // namespace
}  // namespace mushroom::blockgame
