#include "protocol/game_log.h"

#include <gtest/gtest.h>

#include "agents/greedy_agent.h"
#include "agents/local_match.h"
#include "agents/random_agent.h"
#include "mushroom/board_gen.h"
#include "mushroom/position_io.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

GameLog played_log(uint64_t seed) {
  GreedyAgent greedy;
  RandomAgent random(seed);
  const auto result = play_local_game(greedy, random, random_board(seed));
  GameLog log;
  log.start = result.start;
  for (const PlayedMove& m : result.moves) log.moves.push_back({m.player, m.move, int(m.ms)});
  log.finished = true;
  log.score_first = result.final.score(kFirst);
  log.score_second = result.final.score(kSecond);
  return log;
}

// The parser's message for a malformed log, or "no error".
std::string parse_error_of(const std::string& text, const std::string& source) {
  try {
    parse_game_log(text, source);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GameLog, FormatParseRoundTrip) {
  const GameLog log = played_log(4);
  const std::string text = format_game_log(log);
  EXPECT_EQ(text.rfind("INIT ", 0), 0u);
  EXPECT_NE(text.find("\nFINISH\nSCOREFIRST "), std::string::npos);
  const GameLog back = parse_game_log(text);
  ASSERT_EQ(back.moves.size(), log.moves.size());
  for (size_t i = 0; i < log.moves.size(); ++i) {
    EXPECT_EQ(back.moves[i].move, log.moves[i].move);
    EXPECT_EQ(back.moves[i].player, log.moves[i].player);
  }
  EXPECT_TRUE(back.finished);
  EXPECT_EQ(back.score_first, log.score_first);
  EXPECT_EQ(back.final_position().score(kFirst), log.score_first);
  EXPECT_EQ(format_game_log(back), text);
}

TEST(GameLog, AbortLineAndCrlf) {
  GameLog log = played_log(5);
  log.moves.resize(3);
  log.finished = false;
  log.aborted_by = kSecond;
  log.abort_reason = "illegal move 0 0 0 0: sum is 4, not 10";
  std::string text = format_game_log(log);
  EXPECT_NE(text.find("\nABORT SECOND illegal move 0 0 0 0: sum is 4, not 10\n"), std::string::npos);
  std::string crlf;
  for (char ch : text) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  const GameLog back = parse_game_log(crlf);
  ASSERT_TRUE(back.aborted_by.has_value());
  EXPECT_EQ(*back.aborted_by, kSecond);
  EXPECT_EQ(back.abort_reason, log.abort_reason);
  EXPECT_EQ(back.moves.size(), 3u);
}

TEST(GameLog, MalformedLogsNameTheLine) {
  const std::string init = format_game_log(played_log(6)).substr(0, format_game_log(played_log(6)).find('\n') + 1);
  auto error_of = [](const std::string& text) { return parse_error_of(text, "g.log"); };
  EXPECT_EQ(error_of("FIRST 0 0 0 1 5\n"), "g.log:1: a move before INIT");
  EXPECT_EQ(error_of(init + "FIRST 0 0 x 1 5\n"), "g.log:2: expected 'FIRST r1 c1 r2 c2 ms'");
  EXPECT_EQ(error_of(init + "SECOND 0 0 0 1\n"), "g.log:2: expected 'SECOND r1 c1 r2 c2 ms'");
  EXPECT_EQ(error_of(init + "BOGUS\n"), "g.log:2: unknown line 'BOGUS'");
  EXPECT_EQ(error_of(init + "ABORT THIRD x\n"), "g.log:2: expected 'ABORT FIRST|SECOND reason'");
  EXPECT_EQ(error_of("INIT 123\n"), "g.log:1: INIT: expected 10 rows of 17 digits, got 1 words");
  EXPECT_EQ(error_of(""), "g.log: no INIT line");
}

// A move line holds the pass or a rectangle on the board: anything else
// cannot be replayed (issue 101's fuzzing found `mushroom replay` shifting
// by a negative column for `SECOND -0 -1 -1 -1 0`), so the line is refused.
TEST(GameLog, MovesOffTheBoardAreRefusedByLine) {
  const std::string init = format_game_log(played_log(6)).substr(0, format_game_log(played_log(6)).find('\n') + 1);
  auto error_of = [](const std::string& text) { return parse_error_of(text, "g.log"); };
  const char* const refused = "' is neither a rectangle on the board nor the pass -1 -1 -1 -1";
  EXPECT_EQ(error_of(init + "SECOND -0 -1 -1 -1 0\n"), std::string("g.log:2: move '-0 -1 -1 -1") + refused);
  EXPECT_EQ(error_of(init + "FIRST 0 0 9 17 5\n"), std::string("g.log:2: move '0 0 9 17") + refused);
  EXPECT_EQ(error_of(init + "FIRST 3 3 2 2 5\n"), std::string("g.log:2: move '3 3 2 2") + refused);
  EXPECT_EQ(error_of(init + "FIRST -1 0 0 0 5\n"), std::string("g.log:2: move '-1 0 0 0") + refused);
  EXPECT_EQ(error_of(init + "FIRST 0 0 0 1 5\nSEARCH 0.1 1  0 0 10 0 3 0.5\n"),
            std::string("g.log:3: move '0 0 10 0") + refused);
  // The board's corners and the pass still read, and replay.
  const GameLog log = parse_game_log(init + "FIRST 0 0 0 0 5\nSECOND 9 16 9 16 5\nFIRST -1 -1 -1 -1 1\n");
  EXPECT_EQ(log.moves.size(), 3u);
  log.final_position();
}

// A log file reads back as its text parses; a missing file and a
// malformed one are refused naming the path (and the line).
TEST(GameLog, ReadGameLogNamesTheFile) {
  ScratchFolder scratch("game_log_read_test");
  const GameLog log = played_log(7);
  const std::string good = (scratch.dir() / "good.log").string();
  write_file_atomic(good, format_game_log(log));
  EXPECT_EQ(format_game_log(read_game_log(good)), format_game_log(log));
  const std::string bad = (scratch.dir() / "bad.log").string();
  const std::string text = format_game_log(log);
  write_file_atomic(bad, text.substr(0, text.find('\n') + 1) + "BOGUS\n");
  try {
    read_game_log(bad);
    ADD_FAILURE() << "a malformed log was read";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), bad + ":2: unknown line 'BOGUS'");
  }
  const std::string missing = (scratch.dir() / "missing.log").string();
  try {
    read_game_log(missing);
    ADD_FAILURE() << "a missing log was read";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a missing log was parsed as empty text: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open file '" + missing + "'");
  }
}

// Self-play's SEARCH lines survive a round trip and bind to their move.
TEST(GameLog, SearchNotesRoundTrip) {
  GameLog log = played_log(7);
  ASSERT_GE(log.moves.size(), 2u);
  log.moves[1].search = SearchNote{-0.125, {{log.moves[1].move, 120, -0.1}, {Move::pass(), 3, -0.75}}};
  const std::string text = format_game_log(log);
  EXPECT_NE(text.find("SEARCH -0.1250 2  "), std::string::npos) << text;
  const GameLog back = parse_game_log(text);
  EXPECT_FALSE(back.moves[0].search.has_value());
  ASSERT_TRUE(back.moves[1].search.has_value());
  const SearchNote& note = *back.moves[1].search;
  EXPECT_DOUBLE_EQ(note.value, -0.125);
  ASSERT_EQ(note.candidates.size(), 2u);
  EXPECT_EQ(note.candidates[0].move, log.moves[1].move);
  EXPECT_EQ(note.candidates[0].visits, 120);
  EXPECT_TRUE(note.candidates[1].move.is_pass());
  EXPECT_DOUBLE_EQ(note.candidates[1].q, -0.75);
  EXPECT_EQ(format_game_log(back), text);
}

TEST(GameLog, MalformedSearchLinesNameTheLine) {
  const std::string head = format_game_log(played_log(6)).substr(0, format_game_log(played_log(6)).find('\n') + 1);
  auto error_of = [](const std::string& text) { return parse_error_of(text, "s.log"); };
  const std::string move = "FIRST -1 -1 -1 -1 0\n";
  EXPECT_EQ(error_of(head + "SEARCH 0.1 0\n"), "s.log:2: SEARCH must follow its move line, once");
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 0\nSEARCH 0.1 0\n"), "s.log:4: SEARCH must follow its move line, once");
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 1 0 0 0\n"),
            "s.log:3: expected 'SEARCH value n' and n groups 'r1 c1 r2 c2 visits q'");
  EXPECT_EQ(error_of(head + move + "SEARCH 1.5 0\n"), "s.log:3: SEARCH value 1.5 is outside [-1, 1]");
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 1 0 0 0 1 -3 0.2\n"),
            "s.log:3: expected 'SEARCH value n' and n groups 'r1 c1 r2 c2 visits q'");
  // A candidate's q is in [-1, 1] as the value is (issue 101's fuzzing: a
  // q of 10^115 did not survive format_game_log's fixed decimals).
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 1  0 0 0 1 3 1e115\n"), "s.log:3: SEARCH q 1e115 is outside [-1, 1]");
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 1  0 0 0 1 3 -1.5\n"), "s.log:3: SEARCH q -1.5 is outside [-1, 1]");
  EXPECT_EQ(error_of(head + move + "SEARCH 0.1 0\n"), "no error");
}

}  // namespace
}  // namespace mushroom
