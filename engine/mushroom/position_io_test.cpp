#include "mushroom/position_io.h"

#include <gtest/gtest.h>

#include "mushroom/board_gen.h"
#include "mushroom/playout_positions.h"
#include "util/text.h"

namespace mushroom {
namespace {

const char* kDigits =
    "12345678912345678\n"
    "00000000000000000\n"
    "99999999999999999\n"
    "12345678912345678\n"
    "12345678912345678\n"
    "12345678912345678\n"
    "12345678912345678\n"
    "12345678912345678\n"
    "12345678912345678\n"
    "12345678912345670\n";

std::string error_of(const std::string& text) {
  try {
    parse_position(text, "pos.txt");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PositionIo, ParsesDigitsOnly) {
  Position p = parse_position(kDigits);
  EXPECT_EQ(p.digit(0, 0), 1);
  EXPECT_EQ(p.digit(2, 16), 9);
  EXPECT_EQ(p.digit(9, 16), 0);
  EXPECT_EQ(p.nonzero_mask(1), 0u);
  EXPECT_EQ(p.to_move(), kFirst);
  EXPECT_EQ(p.score(kFirst) + p.score(kSecond), 0);
}

TEST(PositionIo, ParsesOwnerBlockAndCrlf) {
  // Owned cells are empty: rows 1 and 9 end in 0s where they are owned.
  std::string text = "12345678912345678\n00000000000000000\n";
  for (int r = 2; r < 9; ++r) text += "12345678912345678\n";
  text += "12345678912345600\n\n";
  text += ".................\n11...............\n";
  for (int r = 2; r < 9; ++r) text += ".................\n";
  text += "...............22\n";
  std::string crlf;
  for (char ch : text) {
    if (ch == '\n') crlf += '\r';
    crlf += ch;
  }
  Position p = parse_position(crlf);
  EXPECT_EQ(p.score(kFirst), 2);
  EXPECT_EQ(p.score(kSecond), 2);
  EXPECT_EQ(p.owner(9, 16), Owner::kSecond);
  EXPECT_EQ(p.hash(), p.compute_hash_from_scratch());
  EXPECT_EQ(p.to_move(), kFirst);
  EXPECT_FALSE(p.last_move_was_pass());
}

// Any position of a real game: the side to move and a pass just played.
TEST(PositionIo, StateLinesGiveTheSideToMoveAndAPass) {
  const Position second = parse_position(std::string(kDigits) + "\nto move: SECOND\n", "pos.txt");
  EXPECT_EQ(second.to_move(), kSecond);
  EXPECT_FALSE(second.last_move_was_pass());
  EXPECT_EQ(second.hash(), second.compute_hash_from_scratch());
  const Position passed = parse_position(std::string(kDigits) + "\nlast move: pass\r\nto move:   FIRST  \n", "pos.txt");
  EXPECT_EQ(passed.to_move(), kFirst);
  EXPECT_TRUE(passed.last_move_was_pass());
  EXPECT_EQ(passed.hash(), passed.compute_hash_from_scratch());
  // Written only when they say something: a FIRST-to-move file is as before.
  EXPECT_EQ(format_position(parse_position(kDigits)), kDigits);
  EXPECT_EQ(format_position(second), std::string(kDigits) + "\nto move: SECOND\n");
  EXPECT_TRUE(parse_position(format_position(passed)) == passed);
}

TEST(PositionIo, ImpossiblePositionsAndBadStateLinesAreNamed) {
  std::string owned_digit = std::string(kDigits) + "\n";
  for (int r = 0; r < 10; ++r) owned_digit += r == 3 ? "....1............\n" : ".................\n";
  EXPECT_EQ(error_of(owned_digit),
            "pos.txt:15:5: cell (3,4) is owned but still holds the digit 5 (line 4): a taken cell is empty");
  EXPECT_EQ(error_of(std::string(kDigits) + "to move: THIRD\n"),
            "pos.txt:11:1: 'to move:' takes FIRST or SECOND, not 'THIRD'");
  EXPECT_EQ(error_of(std::string(kDigits) + "to move: FIRST\nto move: SECOND\n"),
            "pos.txt:12:1: a second 'to move:' line");
  EXPECT_EQ(error_of(std::string(kDigits) + "last move: 0 0 1 1\n"),
            "pos.txt:11:1: 'last move:' takes only pass (leave the line out otherwise), not '0 0 1 1'");
  EXPECT_EQ(error_of(std::string(kDigits) + "\nto move: SECOND\nextra\n"),
            "pos.txt:13:1: expected 'to move: FIRST|SECOND' or 'last move: pass', got 'extra'");
}

TEST(PositionIo, ErrorsNameLineAndColumn) {
  std::string bad = kDigits;
  bad[18 * 3 + 4] = 'x';  // line 4, column 5
  EXPECT_EQ(error_of(bad), "pos.txt:4:5: expected digits 0-9, got 'x'");
  std::string short_row = kDigits;
  short_row.erase(18 * 2 + 16, 1);  // line 3 has 16 digits
  EXPECT_EQ(error_of(short_row), "pos.txt:3:17: row has only 16 of 17 digits 0-9");
  std::string long_row = kDigits;
  long_row.insert(18 * 5, "1");
  EXPECT_EQ(error_of(long_row), "pos.txt:6:18: row has more than 17 digits 0-9");
  EXPECT_EQ(error_of("123\n"), "pos.txt:1:4: row has only 3 of 17 digits 0-9");
  EXPECT_EQ(error_of(""), "pos.txt:1:1: expected 10 rows of digits, found 0");
  std::string nine_rows(kDigits, 18 * 9);
  EXPECT_EQ(error_of(nine_rows), "pos.txt:10:1: expected 10 rows of digits, found 9");
  std::string bad_owner = std::string(kDigits) + "\n";
  for (int r = 0; r < 10; ++r) bad_owner += r == 7 ? "........3........\n" : ".................\n";
  EXPECT_EQ(error_of(bad_owner), "pos.txt:19:9: expected owners ('.', '1', '2'), got '3'");
  std::string few_owner = std::string(kDigits) + "\n.................\n";
  EXPECT_EQ(error_of(few_owner), "pos.txt:13:1: expected 10 rows of owners ('.', '1', '2'), found 1");
  std::string trailing = std::string(kDigits) + "\n";
  for (int r = 0; r < 10; ++r) trailing += ".................\n";
  trailing += "\nextra\n";
  EXPECT_EQ(error_of(trailing), "pos.txt:23:1: expected 'to move: FIRST|SECOND' or 'last move: pass', got 'extra'");
}

TEST(PositionIo, FormatParseRoundTrip) {
  for (const Position& p : playout_positions(300, 4)) {
    Position q = parse_position(format_position(p));
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        ASSERT_EQ(q.digit(r, c), p.digit(r, c));
        ASSERT_EQ(q.owner(r, c), p.owner(r, c));
      }
    EXPECT_EQ(q.to_move(), p.to_move());
    EXPECT_EQ(q.last_move_was_pass(), p.last_move_was_pass());
  }
}

TEST(PositionIo, PositionListAndInitRows) {
  std::string text = std::string(kDigits) + "\n\n" + kDigits;
  auto list = parse_position_list(text, "set.txt");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_TRUE(list[0] == list[1]);
  try {
    parse_position_list(std::string(kDigits) + "\n123\n", "set.txt");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "set.txt:12:1: block has 1 lines; each position is 10 lines of 17 digits");
  }
  std::vector<std::string> rows = split_lines(kDigits);
  std::vector<std::string_view> words(rows.begin(), rows.end());
  EXPECT_TRUE(parse_init_rows(words) == parse_position(kDigits));
  words.pop_back();
  EXPECT_THROW(parse_init_rows(words), ParseError);
  rows[2][3] = '-';
  std::vector<std::string_view> bad(rows.begin(), rows.end());
  try {
    parse_init_rows(bad);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "INIT:3:4: expected digits 0-9, got '-'");
  }
}

}  // namespace
}  // namespace mushroom
