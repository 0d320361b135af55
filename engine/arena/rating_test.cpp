#include "arena/rating.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "util/rng.h"

namespace mushroom {
namespace {

// Known strengths (Elo), a first-move advantage and a draw width.
const std::vector<double> kTruth = {0, 120, -150, 260, 40};
constexpr double kAdvantage = 150, kDrawWidth = 60;

double expected(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

// A round robin of `games` games per ordered pair of seats, drawn from the model.
std::vector<RatedGame> synthetic_games(uint64_t seed, int games) {
  Rng rng(seed);
  std::vector<RatedGame> out;
  const int n = int(kTruth.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const double z = kTruth[size_t(i)] - kTruth[size_t(j)] + kAdvantage;
      const double p_win = expected(z - kDrawWidth), p_loss = expected(-z - kDrawWidth);
      for (int g = 0; g < games; ++g) {
        const double u = rng.uniform_double();
        out.push_back({i, j, u < p_win ? 1 : u < p_win + p_loss ? -1 : 0});
      }
    }
  return out;
}

TEST(Rating, RecoversKnownStrengthsWithinTheirIntervals) {
  const RatingList list = fit_ratings(5, synthetic_games(1, 200));
  ASSERT_EQ(list.programs.size(), 5u);
  EXPECT_EQ(list.programs[0].elo, 0);
  for (size_t p = 0; p < kTruth.size(); ++p) {
    const ProgramRating& r = list.programs[p];
    ASSERT_TRUE(r.rated);
    EXPECT_LE(r.low, kTruth[p]) << "program " << p << " rated " << r.elo;
    EXPECT_GE(r.high, kTruth[p]) << "program " << p << " rated " << r.elo;
    if (p > 0) {
      EXPECT_LT(r.high - r.low, 120) << "4,000 games give intervals of a few dozen Elo";
    }
  }
  EXPECT_LE(list.advantage_low, kAdvantage);
  EXPECT_GE(list.advantage_high, kAdvantage);
  EXPECT_NEAR(list.draw_width, kDrawWidth, 25);
}

TEST(Rating, IntervalsCoverTheTruthAtAboutTheNominalRate) {
  int covered = 0, total = 0, advantage_covered = 0;
  constexpr int kSeeds = 300;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const RatingList list = fit_ratings(5, synthetic_games(1000 + seed, 20));
    for (size_t p = 1; p < kTruth.size(); ++p) {
      covered += list.programs[p].low <= kTruth[p] && kTruth[p] <= list.programs[p].high;
      ++total;
    }
    advantage_covered += list.advantage_low <= kAdvantage && kAdvantage <= list.advantage_high;
  }
  const double rate = double(covered) / total;
  std::printf("coverage %d/%d, advantage %d/%d\n", covered, total, advantage_covered, kSeeds);
  // 1,200 intervals: at 95% nominal, the rate's standard error is 0.6%.
  EXPECT_GT(rate, 0.92) << covered << "/" << total;
  EXPECT_LT(rate, 0.98) << covered << "/" << total;
  EXPECT_GT(double(advantage_covered) / kSeeds, 0.90);
}

TEST(Rating, APerfectScoreStillGetsAFiniteRating) {
  // Program 1 wins every game against 0, from either seat.
  std::vector<RatedGame> games;
  for (int g = 0; g < 20; ++g) games.push_back({0, 1, -1}), games.push_back({1, 0, 1});
  const RatingList list = fit_ratings(2, games);
  ASSERT_TRUE(list.programs[1].rated);
  EXPECT_TRUE(std::isfinite(list.programs[1].elo));
  EXPECT_GT(list.programs[1].elo, 300);
  EXPECT_GT(list.programs[1].low, 0);
}

TEST(Rating, ProgramsWithoutAChainOfGamesToTheAnchorAreNotRated) {
  const std::vector<RatedGame> games = {{0, 1, 1}, {1, 0, -1}, {2, 3, 1}, {3, 2, 0}};
  const RatingList list = fit_ratings(5, games, 1);
  EXPECT_TRUE(list.programs[0].rated);
  EXPECT_TRUE(list.programs[1].rated);
  EXPECT_EQ(list.programs[1].elo, 0);
  EXPECT_FALSE(list.programs[2].rated);
  EXPECT_FALSE(list.programs[3].rated);
  EXPECT_FALSE(list.programs[4].rated);
}

TEST(Rating, BadIndicesAreErrors) {
  EXPECT_THROW(fit_ratings(2, {{0, 2, 1}}), std::invalid_argument);
  EXPECT_THROW(fit_ratings(2, {{1, 1, 1}}), std::invalid_argument);
  EXPECT_THROW(fit_ratings(2, {}, 2), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom
