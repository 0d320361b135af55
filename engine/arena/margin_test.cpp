#include "arena/margin.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "arena/arena.h"

namespace mushroom {
namespace {

// A finished game of pair `board`: the first seat's and second's cells, A
// moving first or not, and who forfeited (-1 nobody, 0 A, 1 B).
ArenaGame game(int board, bool a_first, int first_cells, int second_cells, int forfeiter = -1) {
  ArenaGame g;
  g.board = board;
  g.a_first = a_first;
  g.result.log.score_first = first_cells;
  g.result.log.score_second = second_cells;
  if (forfeiter >= 0) {
    const bool first_forfeits = (forfeiter == 0) == a_first;
    g.result.log.aborted_by = first_forfeits ? kFirst : kSecond;
    g.result.log.abort_reason = "illegal move";
  }
  g.done = true;
  return g;
}

TEST(Margin, EachGameIsClippedToTheCap) {
  EXPECT_EQ(game_margin(game(0, true, 90, 80), 4), 10);
  EXPECT_EQ(capped_game_margin(game(0, true, 90, 80), 4), 4);
  EXPECT_EQ(game_margin(game(0, false, 90, 80), 4), -10);  // A moved second and lost by 10
  EXPECT_EQ(capped_game_margin(game(0, false, 90, 80), 4), -4);
  EXPECT_EQ(capped_game_margin(game(0, false, 80, 83), 4), 3);  // inside the cap: as it is
  EXPECT_EQ(capped_game_margin(game(0, true, 85, 85), 4), 0);
  EXPECT_EQ(capped_game_margin(game(0, true, 90, 80), 2.5), 2.5);
}

// A forfeit's cells are 0 for both (arena/referee.h): were it read as a
// margin it would count 0, the same as a draw. It counts as a loss by the
// cap for the side that forfeited, in the raw margin and the capped one.
TEST(Margin, AForfeitIsALossByTheCapForTheSideThatForfeited) {
  for (const bool a_first : {true, false}) {
    EXPECT_EQ(game_margin(game(0, a_first, 0, 0, /*A*/ 0), 4), -4) << a_first;
    EXPECT_EQ(game_margin(game(0, a_first, 0, 0, /*B*/ 1), 4), 4) << a_first;
    EXPECT_EQ(capped_game_margin(game(0, a_first, 0, 0, 1), 6), 6) << a_first;
    EXPECT_EQ(capped_game_margin(game(0, a_first, 0, 0, 0), 6), -6) << a_first;
  }
}

TEST(Margin, PairMarginsAreTheMeanOfCompletePairsInBoardOrder) {
  const std::vector<ArenaGame> games = {
      game(2, true, 88, 82), game(0, true, 100, 70), game(0, false, 86, 84),  // board 0: +30 and -2
      game(2, false, 0, 0, /*B forfeits*/ 1),                                   // board 2: +6 and +4 (forfeit)
      game(1, true, 90, 80),                                                    // board 1: one game only
  };
  EXPECT_EQ(pair_margins(games, 4, false), (std::vector<double>{14, 5}));
  EXPECT_EQ(pair_margins(games, 4, true), (std::vector<double>{1, 4}));
}

TEST(Margin, BadSettingsAreRefusedByName) {
  auto refused = [](const MarginSprt& test, double cap, const std::string& words) {
    try {
      check_margin_sprt(test, cap);
      ADD_FAILURE() << "accepted h0=" << test.h0 << " h1=" << test.h1 << " cap=" << cap;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  EXPECT_NO_THROW(check_margin_sprt(MarginSprt{0, 0.1}, 4));
  refused(MarginSprt{0.1, 0}, 4, "--sprt-margin needs H0 < H1");
  refused(MarginSprt{0.1, 0.1}, 4, "--sprt-margin needs H0 < H1");
  refused(MarginSprt{0, 5}, 4, "--sprt-margin: the bound 5.00 lies outside [-cap, +cap] = [-4.00, 4.00]");
  refused(MarginSprt{-4.5, 0}, 4, "lies outside [-cap, +cap]");
  refused(MarginSprt{0, 0.1}, 0, "--margin-cap must be in (0, 170] cells, got 0.00");
  refused(MarginSprt{0, 0.1}, 171, "--margin-cap must be in (0, 170] cells");
  refused(MarginSprt{0, 0.1, 0.5, 0.05}, 4, "--sprt-alpha and --sprt-beta must be in (0, 0.5)");
  refused(MarginSprt{0, 0.1, 0.05, 0.05, -2}, 4, "--margin-min-games must be at least 0, got -2");
  for (const char* text : {"0.1", "a,b", "0,0.1x", ",0.1", ""}) {
    try {
      parse_margin_bounds(text);
      ADD_FAILURE() << "parsed '" << text << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--sprt-margin must be 'H0,H1' in cells a game (e.g. 0,0.1), got '" +
                                           std::string(text) + "'"),
                std::string::npos)
          << e.what();
    }
  }
  const MarginSprt parsed = parse_margin_bounds("-0.05,0.15");
  EXPECT_DOUBLE_EQ(parsed.h0, -0.05);
  EXPECT_DOUBLE_EQ(parsed.h1, 0.15);
}

// The guard: no decision before min_games games, whatever the LLR; the
// rule's default is 200 games, 100 pairs.
TEST(Margin, TheMarginTestDecidesNothingBeforeItsMinimumGames) {
  EXPECT_EQ(MarginSprt{}.min_games, 200);
  const MeanSprt guarded = MarginSprt{0, 0.1, 0.05, 0.05, 20}.on_margins();
  EXPECT_EQ(guarded.min_pairs, 10);
  const std::vector<double> nine(9, 4.0), ten(10, 4.0);
  EXPECT_GT(guarded.llr(nine), guarded.upper_bound());  // the LLR is there...
  EXPECT_EQ(guarded.decide(nine), SprtDecision::kContinue);  // ...the decision is not
  EXPECT_EQ(guarded.decide(ten), SprtDecision::kAcceptH1);
  EXPECT_EQ((MarginSprt{0, 0.1, 0.05, 0.05, 21}.on_margins().min_pairs), 11);  // an odd count: the pair it ends in
}

}  // namespace
}  // namespace mushroom
