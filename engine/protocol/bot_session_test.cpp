#include "protocol/bot_session.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "agents/greedy_agent.h"
#include "agents/random_agent.h"
#include "mushroom/board_gen.h"
#include "mushroom/movegen.h"
#include "util/rng.h"
#include "util/text.h"

namespace mushroom {
namespace {

std::string init_line(const Position& p, const std::string& sep = " ") {
  std::string line = "INIT";
  for (int r = 0; r < kRows; ++r) {
    line += sep;
    for (int c = 0; c < kCols; ++c) line += char('0' + p.digit(r, c));
  }
  return line;
}

// A bot session with captured streams.
struct Harness {
  std::ostringstream out, err;
  std::string agent_name = "greedy";
  BotSession session{[this] { return make_agent(agent_name, {}); }, out, err};
  bool send(const std::string& line) { return session.handle_line(line); }
  std::vector<std::string> out_lines() const { return split_lines(out.str()); }
};

// Every stdout line is OK or a move: nothing else may ever reach the referee.
void expect_clean_stdout(const Harness& h) {
  static const std::regex valid(R"(OK|-?\d+ -?\d+ -?\d+ -?\d+)");
  for (const std::string& line : h.out_lines()) EXPECT_TRUE(std::regex_match(line, valid)) << "'" << line << "'";
}

TEST(BotSession, AnswersOkBeforeBuildingTheAgent) {
  std::ostringstream out, err;
  std::string out_when_built;
  BotSession session(
      [&] {
        out_when_built = out.str();
        return make_agent("greedy", {});
      },
      out, err);
  session.handle_line("READY FIRST");
  EXPECT_EQ(out_when_built, "OK\n");
}

// A scripted referee plays a whole game between two bot sessions, checks
// every move against its own board, and ends with FINISH.
TEST(BotSession, PlaysAWholeGameAgainstAScriptedReferee) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Harness bots[2];
    bots[0].agent_name = "greedy";
    bots[1].agent_name = "random";
    const Position start = random_board(seed);
    Position referee = start;
    EXPECT_TRUE(bots[0].send("READY FIRST"));
    EXPECT_TRUE(bots[1].send("READY SECOND"));
    for (auto& b : bots) b.send(init_line(start));
    size_t read[2] = {1, 1};  // lines consumed (the OK)
    while (!referee.game_over()) {
      const Player p = referee.to_move();
      bots[p].send("TIME 9000 9000");
      const auto lines = bots[p].out_lines();
      ASSERT_EQ(lines.size(), read[p] + 1);
      const auto move = parse_move_words(split_words(lines[read[p]++]), 0);
      ASSERT_TRUE(move.has_value());
      ASSERT_TRUE(referee.is_legal(*move)) << to_string(*move);
      referee.apply(*move);
      bots[1 - p].send("OPP " + to_string(*move) + " 12");
    }
    for (auto& b : bots) {
      EXPECT_FALSE(b.send("FINISH"));
      EXPECT_EQ(b.err.str(), "");
      expect_clean_stdout(b);
      ASSERT_TRUE(b.session.position().has_value());
      EXPECT_EQ(b.session.position()->hash(), referee.hash());
    }
  }
}

TEST(BotSession, ToleratesCrlfExtraSpacesAndBlankLines) {
  Harness h;
  const Position start = random_board(7);
  h.send("");
  h.send("   \r");
  h.send("  READY   SECOND  \r");
  h.send(init_line(start, "   ") + "  \r");
  h.send("OPP  -1 -1 -1 -1   0\r");
  h.send("\tTIME  10000\t9990 \r");
  const auto lines = h.out_lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "OK");
  EXPECT_EQ(lines[1], to_string(greedy_move(start)));
  EXPECT_EQ(h.err.str(), "");
}

TEST(BotSession, WarnsOnHostileInputButNeverPrintsJunkOrCrashes) {
  Harness h;
  const Position start = random_board(8);
  h.send("HELLO there");
  EXPECT_NE(h.err.str().find("unknown command 'HELLO' ignored"), std::string::npos);
  h.send("TIME 100 100");  // before INIT
  EXPECT_NE(h.err.str().find("TIME before INIT; passing"), std::string::npos);
  h.send("READY");         // missing side
  h.send("INIT 123 456");  // malformed board
  EXPECT_NE(h.err.str().find("INIT: expected 10 rows of 17 digits, got 2 words"), std::string::npos);
  h.send(init_line(start));
  h.send("OPP 1 2 three 4 5");
  EXPECT_NE(h.err.str().find("OPP needs 'r1 c1 r2 c2 ms'; ignored"), std::string::npos);
  h.send("OPP 0 0 99 99 5");
  EXPECT_NE(h.err.str().find("outside the board; ignored"), std::string::npos);
  h.send("TIME abc def");
  EXPECT_NE(h.err.str().find("TIME needs two integers"), std::string::npos);
  h.send("OPP 99999999999 0 0 0 1");
  expect_clean_stdout(h);
  EXPECT_EQ(h.out_lines().size(), 3u);  // the early pass, OK, one move
}

TEST(BotSession, AppliesAnIllegalOppMoveAsTheRefereeSays) {
  Harness h;
  const Position start = random_board(9);
  h.send("READY SECOND");
  h.send(init_line(start));
  ASSERT_NE(start.rect_sum(Move::rect(0, 0, 1, 1)), 10);
  h.send("OPP 0 0 1 1 20");
  EXPECT_NE(h.err.str().find("OPP move 0 0 1 1 is illegal"), std::string::npos);
  EXPECT_NE(h.err.str().find("applying it as the referee says"), std::string::npos);
  const Position& pos = *h.session.position();
  EXPECT_EQ(pos.owner(1, 1), Owner::kFirst);
  EXPECT_EQ(pos.digit(0, 0), 0);
  EXPECT_EQ(pos.to_move(), kSecond);
  h.send("TIME 10000 9980");
  const auto lines = h.out_lines();
  ASSERT_EQ(lines.size(), 2u);
  const auto reply = parse_move_words(split_words(lines[1]), 0);
  ASSERT_TRUE(reply.has_value());
  Position check = start;
  check.apply(Move::rect(0, 0, 1, 1));
  EXPECT_TRUE(check.is_legal(*reply));
}

TEST(BotSession, EndOfInputIsReportedNotACrash) {
  std::istringstream in("READY FIRST\n" + init_line(random_board(3)) + "\nTIME 10000 10000\n");
  std::ostringstream out, err;
  BotSession session([] { return make_agent("greedy", {}); }, out, err);
  EXPECT_EQ(session.run(in), 0);
  EXPECT_NE(err.str().find("input ended before FINISH"), std::string::npos);
  EXPECT_EQ(split_lines(out.str()).size(), 2u);
}

// Random protocol-shaped garbage: right and wrong commands, numbers out of
// range, junk words, CRs and tabs. Nothing escapes, stdout stays clean, and
// every move the bot prints is legal on the board it believes in.
TEST(BotSession, SurvivesRandomGarbage) {
  Rng rng(77);
  const std::vector<std::string> words = {"READY", "FIRST", "SECOND", "INIT", "TIME", "OPP",  "-1",  "0",
                                          "3",     "16",    "9999",   "x",    "\r",  "\t", "OK", "1 2 3 4 5"};
  for (int session = 0; session < 30; ++session) {
    Harness h;
    h.agent_name = session % 2 ? "random" : "greedy";
    const Position start = random_board(uint64_t(session));
    for (int line = 0; line < 200; ++line) {
      std::string text;
      switch (rng.uniform(6)) {
        case 0: text = init_line(start); break;
        case 1: text = "TIME " + std::to_string(int(rng.uniform(20000)) - 100) + " 5000"; break;
        case 2: {
          MoveList list;
          if (h.session.position()) generate_moves(*h.session.position(), list);
          text = list.size ? "OPP " + to_string(list[int(rng.uniform(uint32_t(list.size)))]) + " 7" : "OPP -1 -1 -1 -1 7";
          break;
        }
        default:
          for (uint32_t k = 0, n = rng.uniform(7); k < n; ++k) text += words[rng.uniform(uint32_t(words.size()))] + " ";
      }
      std::optional<Position> before = h.session.position();
      const size_t lines_before = h.out_lines().size();
      ASSERT_NO_THROW(h.send(text)) << text;
      const auto lines = h.out_lines();
      if (lines.size() > lines_before && lines.back() != "OK" && before && !before->game_over()) {
        const auto move = parse_move_words(split_words(lines.back()), 0);
        ASSERT_TRUE(move.has_value());
        Position check = *before;
        if (!move->is_pass()) {
          EXPECT_EQ(check.rect_sum(*move), 10) << lines.back();
        }
      }
    }
    expect_clean_stdout(h);
  }
}

TEST(BotSession, FinishEndsTheSession) {
  std::istringstream in("READY FIRST\nFINISH\nTIME 1 1\n");
  std::ostringstream out, err;
  BotSession session([] { return make_agent("greedy", {}); }, out, err);
  EXPECT_EQ(session.run(in), 0);
  EXPECT_EQ(out.str(), "OK\n");
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace mushroom
