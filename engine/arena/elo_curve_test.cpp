// The Elo curve: each point chained to the one before by its match, the
// interval's two sides accumulated from every match's, and the table.
#include "arena/elo_curve.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

namespace mushroom {
namespace {

ShippedEvaluation entry(const std::string& name, const std::string& against, std::array<int, 5> pentanomial,
                        WinDrawLoss first, WinDrawLoss second) {
  ShippedEvaluation e;
  e.name = name, e.date = "2026-01-01", e.commit = "1234567";
  if (against.empty()) return e;
  ShippedMatch m;
  m.against = against;
  m.counts.first = first, m.counts.second = second;
  m.counts.games = first.games() + second.games();
  m.counts.pentanomial = pentanomial;
  m.sprt_elo0 = 0, m.sprt_elo1 = 15, m.verdict = "H1";
  e.match = m;
  return e;
}

// Two matches of different size and sign, so that neither side of the
// interval equals the other and no match's term equals the other's.
std::vector<ShippedEvaluation> three_entries() {
  return {entry("a", "", {}, {}, {}), entry("b", "a", {4, 17, 206, 20, 16}, {233, 24, 7}, {20, 25, 218}),
          entry("c", "b", {9, 10, 30, 5, 2}, {40, 6, 10}, {8, 6, 42})};
}

TEST(EloCurve, TheAnchorIsZeroWithNoWidth) {
  const auto curve = chain_elo_curve(three_entries());
  ASSERT_EQ(curve.size(), 3u);
  EXPECT_TRUE(curve[0].anchor);
  EXPECT_EQ(curve[0].elo, 0);
  EXPECT_EQ(curve[0].low, 0);
  EXPECT_EQ(curve[0].high, 0);
  EXPECT_FALSE(curve[1].anchor);
}

TEST(EloCurve, EachPointIsTheOneBeforePlusItsMatch) {
  const auto record = three_entries();
  const auto curve = chain_elo_curve(record);
  const EloEstimate b = estimate_elo(pair_scores_of(record[1].match->counts.pentanomial), 253, 225);
  const EloEstimate c = estimate_elo(pair_scores_of(record[2].match->counts.pentanomial), 48, 52);
  EXPECT_DOUBLE_EQ(curve[1].match.elo, b.elo);
  EXPECT_DOUBLE_EQ(curve[1].elo, b.elo);
  EXPECT_DOUBLE_EQ(curve[2].match.elo, c.elo);
  EXPECT_LT(c.elo, 0);  // the second match lost ground: the chain goes down
  EXPECT_DOUBLE_EQ(curve[2].elo, b.elo + c.elo);
  EXPECT_EQ(curve[2].games, 112);
  EXPECT_EQ(curve[2].pairs, 56);
}

TEST(EloCurve, TheIntervalsSidesAddInQuadrature) {
  const auto record = three_entries();
  const auto curve = chain_elo_curve(record);
  const EloEstimate b = curve[1].match, c = curve[2].match;
  // The first point's interval is its match's own.
  EXPECT_NEAR(curve[1].low, b.elo_low, 1e-9);
  EXPECT_NEAR(curve[1].high, b.elo_high, 1e-9);
  // The second's: each side's half-widths added as variances.
  const double down = std::hypot(b.elo - b.elo_low, c.elo - c.elo_low);
  const double up = std::hypot(b.elo_high - b.elo, c.elo_high - c.elo);
  EXPECT_NEAR(curve[2].low, curve[2].elo - down, 1e-9);
  EXPECT_NEAR(curve[2].high, curve[2].elo + up, 1e-9);
  EXPECT_NE(down, up);  // the Elo scale is not symmetric: the sides are kept apart
  // Wider than either match's alone, narrower than their sum.
  EXPECT_GT(down, c.elo - c.elo_low);
  EXPECT_LT(down, (b.elo - b.elo_low) + (c.elo - c.elo_low));
}

TEST(EloCurve, TheShippedMatchGivesTheFiguresOfItsHistory) {
  // Issue 71, "Generation 2": +17.8 Elo [+4.0, +31.8], LLR 3.11.
  const auto record = three_entries();
  const auto curve = chain_elo_curve(record);
  EXPECT_EQ(elo_interval_text(curve[1].elo, curve[1].low, curve[1].high), "+17.8 [+4.0, +31.8]");
  EXPECT_EQ(sprt_text(*record[1].match, curve[1].llr), "SPRT(0, 15) H1, LLR 3.11");
  EXPECT_EQ(curve[1].pairs, 263);
}

TEST(EloCurve, TheTableHasARowForEachPoint) {
  const auto record = three_entries();
  // Columns are padded to the widest cell: compare with single spaces.
  const std::string table =
      std::regex_replace(format_elo_curve_table(record, chain_elo_curve(record)), std::regex(" +"), " ");
  for (const char* row : {"0 a 2026-01-01 the anchor - - - +0.0 (anchor)\n",
                          "1 b 2026-01-01 against a, SPRT(0, 15) H1, LLR 3.11 527 4 17 206 20 16 +17.8 [+4.0, +31.8] "
                          "+17.8 [+4.0, +31.8]\n",
                          "2 c 2026-01-01 against b, SPRT(0, 15) H1, LLR -1.97 112 9 10 30 5 2 -59.5 [-106.2, -14.9] "
                          "-41.7 [-90.4, +5.1]\n"})
    EXPECT_NE(table.find(row), std::string::npos) << row << " in\n" << table;
}

}  // namespace
}  // namespace mushroom
