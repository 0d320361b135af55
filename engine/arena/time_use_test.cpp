#include "arena/time_use.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mushroom {
namespace {

// The contest page's example game (testdata/judge/example-log.txt): 170
// mushrooms; FIRST takes 4 cells in 70 ms, SECOND 5 in 40 ms (166 left),
// then both pass at 161 left (20 and 10 ms).
const char* const kExampleLog =
    "INIT 52466443835422223 13254826938785712 87598398564241564 72722154162442227 43968227685821641 "
    "27727492381231148 56138649164249527 36281415328768234 62682694189422313 62269566965435457\n"
    "FIRST 0 11 0 14 70\n"
    "SECOND 1 13 5 13 40\n"
    "FIRST -1 -1 -1 -1 20\n"
    "SECOND -1 -1 -1 -1 10\n"
    "FINISH\n"
    "SCOREFIRST 4\n"
    "SCORESECOND 5\n";

GameLog example() { return parse_game_log(kExampleLog, "example"); }

TEST(TimeUse, EachMoveCountsInTheBandOfTheMushroomsLeftBeforeIt) {
  TimeUseTable table(10);
  table.add_game(example(), "a", "b");
  ASSERT_EQ(table.programs().size(), 2u);
  const ProgramTimeUse& a = table.programs()[0];
  const ProgramTimeUse& b = table.programs()[1];
  EXPECT_EQ(a.name, "a");
  // a's move at 170 left is alone in band 170; its pass at 161 left is in 160-169.
  ASSERT_EQ(a.bands.size(), 2u);
  EXPECT_EQ(a.bands.at(170).moves, 1);
  EXPECT_DOUBLE_EQ(a.bands.at(170).ms, 70);
  EXPECT_EQ(a.bands.at(160).moves, 1);
  EXPECT_DOUBLE_EQ(a.bands.at(160).ms, 20);
  // b moved at 166 left and passed at 161: both in 160-169.
  ASSERT_EQ(b.bands.size(), 1u);
  EXPECT_EQ(b.bands.at(160).moves, 2);
  EXPECT_DOUBLE_EQ(b.bands.at(160).ms, 50);
  EXPECT_EQ(a.game_ms, std::vector<double>{90});
  EXPECT_EQ(b.game_ms, std::vector<double>{50});

  // Narrower bands split b's moves: 166 left falls in 165-169, 161 in 160-164.
  TimeUseTable narrow(5);
  narrow.add_game(example(), "a", "b");
  EXPECT_EQ(narrow.programs()[1].bands.at(165).moves, 1);
  EXPECT_EQ(narrow.programs()[1].bands.at(160).moves, 1);
}

TEST(TimeUse, AProgramIsCountedUnderItsNameInEitherSeat) {
  TimeUseTable table(10);
  table.add_game(example(), "a", "b");
  table.add_game(example(), "b", "a");  // sides swapped
  EXPECT_EQ(table.games(), 2);
  ASSERT_EQ(table.programs().size(), 2u);
  const ProgramTimeUse& a = table.programs()[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.game_ms, (std::vector<double>{90, 50}));
  EXPECT_EQ(a.moves(), 4);
  EXPECT_DOUBLE_EQ(a.total_ms(), 140);
  EXPECT_EQ(a.bands.at(160).moves, 3);  // its pass as first, its move and pass as second
}

TEST(TimeUse, AForfeitOrAGameWithoutItsEndAddsNothingAndIsCounted) {
  TimeUseTable table(10);
  GameLog forfeit = example();
  forfeit.finished = false;
  forfeit.aborted_by = kSecond;
  table.add_game(forfeit, "a", "b");
  GameLog torn = example();
  torn.finished = false;
  table.add_game(torn, "a", "b");
  EXPECT_EQ(table.games(), 0);
  EXPECT_EQ(table.skipped(), 2);
  EXPECT_TRUE(table.programs().empty());
}

TEST(TimeUse, AnIllegalMoveIsRefusedNamingTheLogAndTheTableStaysAsItWas) {
  TimeUseTable table(10);
  table.add_game(example(), "a", "b");
  GameLog bad = example();
  bad.moves[1].move = Move::rect(0, 11, 0, 14);  // the cells FIRST has just taken
  try {
    table.add_game(bad, "a", "c", "games/bad.log");
    FAIL() << "accepted an illegal move";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("games/bad.log: move 2 (SECOND 0 11 0 14) is illegal"), std::string::npos) << what;
  }
  EXPECT_EQ(table.games(), 1);
  EXPECT_EQ(table.programs().size(), 2u);  // no "c"
  EXPECT_EQ(table.programs()[0].moves(), 2);
}

TEST(TimeUse, TwoSeatsOfOneNameAreRefused) {
  TimeUseTable table(10);
  try {
    table.add_game(example(), "a", "a", "self.log");
    FAIL() << "accepted two seats named a";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("self.log: both seats are named 'a'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(table.games(), 0);
  EXPECT_TRUE(table.programs().empty());
}

TEST(TimeUse, ABandWidthOutOfRangeIsRefusedByName) {
  EXPECT_EQ(TimeUseTable(1).band_width(), 1);
  EXPECT_EQ(TimeUseTable(170).band_width(), 170);
  for (int width : {0, -3, 171}) {
    try {
      TimeUseTable table(width);
      FAIL() << width << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("band width " + std::to_string(width) + " is out of range: 1 to 170"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(TimeUse, QuantilesAreTheNearestRankGame) {
  ProgramTimeUse p;
  EXPECT_EQ(game_ms_quantile(p, 0.5), 0);
  p.game_ms = {400, 100, 300, 200};
  EXPECT_EQ(game_ms_quantile(p, 0.0), 100);
  EXPECT_EQ(game_ms_quantile(p, 0.5), 200);   // rank 2 of 4
  EXPECT_EQ(game_ms_quantile(p, 0.9), 400);   // rank ceil(3.6) = 4
  EXPECT_EQ(game_ms_quantile(p, 1.0), 400);
  p.game_ms = {100, 200, 300, 400, 500, 600};
  EXPECT_EQ(game_ms_quantile(p, 0.9), 600);  // rank ceil(5.4) = 6, where rounding would give 5
}

GameLog with_times_tripled(GameLog log) {
  for (LoggedMove& m : log.moves) m.ms *= 3;
  return log;
}

TEST(TimeUse, TheReportGivesEachQuantileOfTheGames) {
  TimeUseTable table(10);
  table.add_game(example(), "a", "b");
  table.add_game(with_times_tripled(example()), "a", "b");  // a used 90 ms, then 270
  const std::string report = format_time_use(table, 1000);
  EXPECT_NE(report.find("a: 2 games, bank used a game: mean 180 ms, median 90, 90th percentile 270, most 270; left "
                        "unused of 1000 ms: 820 ms a game on average"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("b: 2 games, bank used a game: mean 100 ms, median 50, 90th percentile 150, most 150"),
            std::string::npos)
      << report;
}

TEST(TimeUse, TheReportAndTheCsvGiveEachBandMostMushroomsFirst) {
  TimeUseTable table(10);
  table.add_game(example(), "a", "b");
  GameLog forfeit = example();
  forfeit.aborted_by = kFirst;
  table.add_game(forfeit, "a", "b");
  const std::string report = format_time_use(table, 10000);
  EXPECT_NE(report.find("1 game (and 1 game left out: a forfeit or no FINISH"), std::string::npos) << report;
  EXPECT_NE(report.find("a: 1 game, bank used a game: mean 90 ms, median 90, 90th percentile 90, most 90; left unused "
                        "of 10000 ms: 9910 ms a game on average"),
            std::string::npos)
      << report;
  // a's rows: 170 (70 ms, 77.8% of its time, all of it spent by then), then 160-169.
  EXPECT_NE(report.find("             170        1        70               77.8%           77.8%\n"
                        "         160-169        1        20               22.2%          100.0%\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(time_use_csv(table),
            "program,left_low,left_high,moves,mean_ms,share\n"
            "a,170,170,1,70.0,0.7778\n"
            "a,160,169,1,20.0,0.2222\n"
            "b,160,169,2,25.0,1.0000\n");
}

}  // namespace
}  // namespace mushroom
