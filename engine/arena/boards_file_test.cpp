#include "arena/boards_file.h"

#include <gtest/gtest.h>

#include "mushroom/board_gen.h"
#include "util/parse_error.h"
#include "util/text.h"

namespace mushroom {
namespace {

std::string digits_of(const Position& board) { return format_boards_file({board}); }

// The error a malformed file gets: its message, or "" when it parsed.
std::string error_of(const std::string& text) {
  try {
    parse_boards_file(text, "boards.txt");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(BoardsFile, WritesAndReadsBackBoardsSeparatedByBlankLines) {
  const std::vector<Position> boards = {random_board(1), random_board(2), random_board(3)};
  const std::string text = format_boards_file(boards);
  EXPECT_EQ(text.substr(size_t(kRows) * (kCols + 1), 1), "\n");  // a blank line after the first board
  const BoardsFile file = parse_boards_file(text, "boards.txt");
  ASSERT_EQ(file.boards.size(), 3u);
  for (size_t i = 0; i < boards.size(); ++i) EXPECT_TRUE(file.boards[i] == boards[i]) << i;
  EXPECT_EQ(file.source.rfind("boards.txt (fnv1a64 ", 0), 0u) << file.source;
  // The source names the exact bytes: another file gets another hash.
  EXPECT_NE(parse_boards_file(format_boards_file({boards[0], boards[2]}), "boards.txt").source, file.source);
}

TEST(BoardsFile, TheJudgesExampleInputIsAOneBoardFile) {
  const BoardsFile file = read_boards_file("testdata/judge/example-input.txt");
  ASSERT_EQ(file.boards.size(), 1u);
  EXPECT_EQ(file.boards[0].digit(0, 0), 5);
  EXPECT_EQ(file.boards[0].digit(9, 16), 7);
  EXPECT_EQ(digits_of(file.boards[0]), read_file("testdata/judge/example-input.txt"));
}

TEST(BoardsFile, RefusesAShortRowADigitZeroACutOffBoardAndNoBoardByLine) {
  const std::string a = digits_of(random_board(11)), b = digits_of(random_board(12));
  std::vector<std::string> rows = split_lines(b);

  // Board 2 starts on line 12; its fourth row is line 15.
  std::string short_row = rows[3].substr(0, 16);
  std::string text = a + "\n";
  for (int r = 0; r < kRows; ++r) text += (r == 3 ? short_row : rows[size_t(r)]) + "\n";
  EXPECT_EQ(error_of(text), "boards.txt:15:17: row has only 16 of 17 digits 0-9");

  std::string zero = rows[5];
  zero[7] = '0';
  text = a + "\n";
  for (int r = 0; r < kRows; ++r) text += (r == 5 ? zero : rows[size_t(r)]) + "\n";
  EXPECT_EQ(error_of(text), "boards.txt:17:8: board 2 has the digit 0; a starting board holds the digits 1-9 only");

  text = a + "\n";
  for (int r = 0; r < 6; ++r) text += rows[size_t(r)] + "\n";  // cut off after 6 rows
  EXPECT_EQ(error_of(text), "boards.txt:12:1: block has 6 lines; each position is 10 lines of 17 digits");

  std::string letter = rows[0];
  letter[2] = 'x';
  EXPECT_EQ(error_of(letter + "\n" + b.substr(rows[0].size() + 1)), "boards.txt:1:3: expected digits 0-9, got 'x'");

  EXPECT_EQ(error_of("\n\n"), "boards.txt: no board in it");
  EXPECT_EQ(error_of(a + "\n" + b), "");
}

}  // namespace
}  // namespace mushroom
