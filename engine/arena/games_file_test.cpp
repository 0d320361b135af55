#include "arena/games_file.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

GameRecord forfeit_with_reason(const std::string& reason, int board) {
  GameRecord g;
  g.first = "new";
  g.second = "old";
  g.board = board;
  g.board_seed = 12345;
  g.outcome = -1;
  g.forfeit_by = "new";
  g.reason = reason;
  g.log = "logs/game-" + std::to_string(board) + ".txt";
  return g;
}

// Before RFC 4180 quoting, commas and quotes in a reason became spaces.
TEST(GamesFile, AReasonKeepsItsCommasQuotesAndLineEnds) {
  ScratchFolder scratch("games_file_reason");
  const std::string path = (scratch.dir() / "games.csv").string();
  start_games_file(path);
  const std::string reason = "illegal move \"1 2 3 4\", the rectangle sums to 9,\nnot 10";
  append_line_durably(path, format_game_record(forfeit_with_reason(reason, 0)));
  append_line_durably(path, format_game_record(forfeit_with_reason("timeout waiting for OK", 1)));
  const std::vector<GameRecord> games = read_games_file(path, false);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].reason, reason);
  EXPECT_EQ(games[0].forfeit_by, "new");
  EXPECT_EQ(games[0].log, "logs/game-0.txt");
  EXPECT_EQ(games[1].reason, "timeout waiting for OK");
}

TEST(GamesFile, ATornLastRecordIsDroppedAndCutWhenRepairing) {
  ScratchFolder scratch("games_file_torn");
  const std::string path = (scratch.dir() / "games.csv").string();
  start_games_file(path);
  append_line_durably(path, format_game_record(forfeit_with_reason("a, b", 0)));
  const std::string whole = read_file(path);
  // A kill in the middle of a quoted reason that spans lines.
  write_file_atomic(path, whole + "new,old,1,5,0,0,-1,new,\"cut in\nthe middle");
  EXPECT_EQ(read_games_file(path, false).size(), 1u);
  EXPECT_NE(read_file(path), whole);
  EXPECT_EQ(read_games_file(path, true).size(), 1u);
  EXPECT_EQ(read_file(path), whole);
}

TEST(GamesFile, AStrayQuoteIsRefusedWithItsLine) {
  ScratchFolder scratch("games_file_quote");
  const std::string path = (scratch.dir() / "games.csv").string();
  start_games_file(path);
  append_line_durably(path, "new,old,0,5,0,0,-1,new,a \"quoted\" word,log.txt");
  try {
    read_games_file(path, false);
    FAIL() << "a stray quote was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), path + ":2: a double quote inside a field that does not start with one");
  }
}

}  // namespace
}  // namespace mushroom
