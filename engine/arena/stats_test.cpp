#include "arena/stats.h"

#include "arena/margin.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

namespace mushroom {
namespace {

TEST(Stats, EloFromScoreByHand) {
  // 0.75 = 1 / (1 + 10^(-E/400))  =>  E = 400 log10(3) = 190.8485
  EXPECT_NEAR(elo_from_score(0.75), 190.8485, 1e-3);
  EXPECT_NEAR(elo_from_score(0.25), -190.8485, 1e-3);
  EXPECT_DOUBLE_EQ(elo_from_score(0.5), 0.0);
  EXPECT_TRUE(std::isinf(elo_from_score(1.0)) && elo_from_score(1.0) > 0);
  EXPECT_TRUE(std::isinf(elo_from_score(0.0)) && elo_from_score(0.0) < 0);
  EXPECT_NEAR(score_from_elo(190.8485), 0.75, 1e-6);
  EXPECT_DOUBLE_EQ(score_from_elo(0), 0.5);
}

TEST(Stats, IntervalFromPairsByHand) {
  // Pairs 1, .5, .75, .75: mean .75, variance (.0625 + .0625 + 0 + 0) / 4 =
  // .03125, standard error sqrt(.03125 / 4) = .08839, half-width
  // 1.96 * .08839 = .17324: scores [.57676, .92324] -> Elo [53.76, 432.07].
  const EloEstimate e = estimate_elo({1, 0.5, 0.75, 0.75}, 5, 1);
  EXPECT_NEAR(e.score, 0.75, 1e-12);
  EXPECT_NEAR(e.elo, 190.8485, 1e-3);
  EXPECT_NEAR(e.elo_low, 53.765, 1e-2);
  EXPECT_NEAR(e.elo_high, 432.067, 1e-2);
}

TEST(Stats, CleanSweepKeepsAFiniteLowerBound) {
  const EloEstimate e = estimate_elo({1, 1, 1, 1, 1}, 10, 0);
  EXPECT_TRUE(std::isinf(e.elo));
  // Variance floored at 1/(16*5) = .0125: half-width 1.96 * sqrt(.0125/5) = .098.
  EXPECT_NEAR(e.elo_low, elo_from_score(1 - 1.959963984540054 * std::sqrt(0.0125 / 5)), 1e-9);
  EXPECT_GT(e.elo_low, 300);
}

// Six pairs: WW, WD, DD, WL, LD, WW for the first program. Mean 2/3,
// population variance 0.0763889; nElo = (2/3 - 1/2) / sqrt(2 var) * 800 /
// ln 10 = 148.147, and the mean +- 1.96 sqrt(var / 6) gives [-48.43, +344.72].
TEST(Stats, PentanomialCountsAndNormalizedEloByHand) {
  const std::vector<double> pairs = {1, 0.75, 0.5, 0.5, 0.25, 1};
  const std::array<int, 5> counts = pentanomial_counts(pairs);
  EXPECT_EQ(counts, (std::array<int, 5>{0, 1, 2, 1, 2}));
  const NormalizedElo n = normalized_elo(pairs);
  ASSERT_TRUE(n.valid);
  EXPECT_NEAR(n.nelo, 148.147, 1e-3);
  EXPECT_NEAR(n.low, -48.430, 1e-3);
  EXPECT_NEAR(n.high, 344.724, 1e-3);
  EXPECT_FALSE(normalized_elo({0.5}).valid);          // one pair
  EXPECT_FALSE(normalized_elo({1.0, 1.0, 1.0}).valid);  // no spread
}

TEST(Stats, LikelihoodOfSuperiorityByHand) {
  // 0.5 (1 + erf(10 / sqrt(20))) = 0.99922; 5 W 2 L: 0.5 (1 + erf(3 / sqrt(14))) = 0.87158.
  EXPECT_NEAR(likelihood_of_superiority(10, 0), 0.99922, 1e-5);
  EXPECT_NEAR(likelihood_of_superiority(5, 2), 0.87158, 1e-5);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(4, 4), 0.5);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(0, 0), 0.5);
}

TEST(Stats, PairedMeanIntervalByHand) {
  // 2, 4, 6, 8: mean 5, sample variance 20/3, standard error sqrt(20/3/4) =
  // 1.2910, half-width 1.96 * 1.2910 = 2.5303.
  const MeanInterval m = mean_interval({2, 4, 6, 8});
  EXPECT_EQ(m.n, 4);
  EXPECT_DOUBLE_EQ(m.mean, 5.0);
  EXPECT_NEAR(m.low, 2.4697, 1e-4);
  EXPECT_NEAR(m.high, 7.5303, 1e-4);
  EXPECT_EQ(mean_interval({}).n, 0);
}

TEST(Stats, SprtDecisionsByHand) {
  const Sprt sprt{0, 100};
  // alpha = beta = .05: bounds log(.05/.95) = -2.9444 and +2.9444.
  EXPECT_NEAR(sprt.lower_bound(), -2.94444, 1e-4);
  EXPECT_NEAR(sprt.upper_bound(), 2.94444, 1e-4);
  // s0 = .5, s1 = 1/(1+10^-.25) = .64006.
  // 10 pairs of 1 and 10 of .5: mean .75, var .0625:
  // LLR = 20 * .14006 * (1.5 - 1.14006) / .125 = 8.0663 -> H1.
  std::vector<double> strong;
  for (int i = 0; i < 10; ++i) strong.push_back(1.0), strong.push_back(0.5);
  EXPECT_NEAR(sprt.llr(strong), 8.0663, 1e-3);
  EXPECT_EQ(sprt.decide(strong), Sprt::Decision::kAcceptH1);
  // Pairs alternating .5 and .25: mean .375, var .015625: LLR = -34.966 -> H0.
  std::vector<double> weak;
  for (int i = 0; i < 10; ++i) weak.push_back(0.5), weak.push_back(0.25);
  EXPECT_NEAR(sprt.llr(weak), -34.966, 1e-2);
  EXPECT_EQ(sprt.decide(weak), Sprt::Decision::kAcceptH0);
  // 1, .5, .5, .75: mean .6875, var .042969: LLR = 1.5316 -> continue.
  EXPECT_NEAR(sprt.llr({1, 0.5, 0.5, 0.75}), 1.5316, 1e-3);
  EXPECT_EQ(sprt.decide({1, 0.5, 0.5, 0.75}), Sprt::Decision::kContinue);
}

}  // namespace
}  // namespace mushroom

namespace mushroom {
namespace {

// The LLR grows by the same step every pair at a fixed mean and spread, so
// the expected length is the bound over that step: n pairs reaching llr
// means bound / (llr / n) pairs to the bound it drifts to.
TEST(Stats, SprtExpectedPairsIsTheBoundOverTheMeanStep) {
  const Sprt sprt{0, 15};
  std::vector<double> better, worse;
  for (int i = 0; i < 25; ++i) {
    for (double x : {0.5, 0.5, 0.75, 1.0}) better.push_back(x);
    for (double x : {0.5, 0.5, 0.25, 0.5}) worse.push_back(x);
  }
  const double up = sprt.llr(better);
  ASSERT_GT(up, 0);
  EXPECT_NEAR(sprt.expected_pairs(better), sprt.upper_bound() * double(better.size()) / up, 1e-9);
  EXPECT_LT(sprt.expected_pairs(better), double(better.size()));  // a clear difference decides early
  const double down = sprt.llr(worse);
  ASSERT_LT(down, 0);
  EXPECT_NEAR(sprt.expected_pairs(worse), sprt.lower_bound() * double(worse.size()) / down, 1e-9);
  EXPECT_TRUE(std::isinf(sprt.expected_pairs({0.5})));
  // Half the spread at the same mean: the LLR steps twice as fast.
  std::vector<double> tighter;
  for (int i = 0; i < 50; ++i)
    for (double x : {0.5, 0.75}) tighter.push_back(x);
  std::vector<double> wider;
  for (int i = 0; i < 50; ++i)
    for (double x : {0.25, 1.0}) wider.push_back(x);
  EXPECT_LT(sprt.expected_pairs(tighter), sprt.expected_pairs(wider));
}

}  // namespace
}  // namespace mushroom

namespace mushroom {
namespace {

// The margin test's LLR by hand: H0 = 0, H1 = 0.1 cells, step 0.5 (pair
// margins are halves), on the pairs 1, .5, 0, .5, 1.5 as they arrive.
//   2 pairs: mean .75, var .0625 floored at .25/2 = .125: 2 * .1 * 1.4 / .25 = 1.12
//   3 pairs: mean .5, var .16667: 3 * .1 * .9 / .33333 = 0.81
//   4 pairs: mean .5, var .125: 4 * .1 * .9 / .25 = 1.44
//   5 pairs: mean .7, var .26: 5 * .1 * 1.3 / .52 = 1.25
TEST(Stats, MeanSprtLlrOnAHandComputedSequence) {
  const MeanSprt test{0, 0.1, 0.05, 0.05, 0.5};
  const std::vector<double> pairs = {1, 0.5, 0, 0.5, 1.5};
  const double expected[] = {0, 1.12, 0.81, 1.44, 1.25};
  for (size_t n = 1; n <= pairs.size(); ++n)
    EXPECT_NEAR(test.llr(std::vector<double>(pairs.begin(), pairs.begin() + long(n))), expected[n - 1], 1e-9) << n;
  EXPECT_EQ(test.decide(pairs), SprtDecision::kContinue);
  // No spread: the variance floor .25/3 keeps it finite: 3 * .1 * .9 / .16667 = 1.62.
  EXPECT_NEAR(test.llr({0.5, 0.5, 0.5}), 1.62, 1e-9);
  // Ten pairs at +1 and ten at 0: mean .5, var .25: 20 * .1 * .9 / .5 = 3.6 > 2.944: H1.
  std::vector<double> better;
  for (int i = 0; i < 10; ++i) better.push_back(1), better.push_back(0);
  EXPECT_NEAR(test.llr(better), 3.6, 1e-9);
  EXPECT_EQ(test.decide(better), SprtDecision::kAcceptH1);
  // The same pairs shifted down a cell: mean -.5: 20 * .1 * (-1.1) / .5 = -4.4: H0.
  for (double& x : better) x -= 1;
  EXPECT_NEAR(test.llr(better), -4.4, 1e-9);
  EXPECT_EQ(test.decide(better), SprtDecision::kAcceptH0);
  // At the mean of H1 itself and this spread, Wald's pairs to H1 are the
  // bound over (h1 - h0)^2 / (2 var): 2.9444 * .5 / .01 = 147.2.
  std::vector<double> at_h1;
  for (int i = 0; i < 10; ++i) at_h1.push_back(0.6), at_h1.push_back(-0.4);
  EXPECT_NEAR(test.pairs_at_h1(at_h1), 2.944439 * 0.5 / 0.01, 1e-3);
  EXPECT_NEAR(test.expected_pairs(at_h1), test.pairs_at_h1(at_h1), 1e-6);
}

// The W/D/L test is the mean test on pair scores at the Elos' scores, with
// the pentanomial floor 1/(16 n): the LLR it always had.
TEST(Stats, TheEloSprtIsTheMeanSprtOnScores) {
  const Sprt sprt{0, 15, 0.05, 0.05};
  const MeanSprt scores = sprt.on_scores();
  EXPECT_DOUBLE_EQ(scores.mu0, 0.5);
  EXPECT_NEAR(scores.mu1, score_from_elo(15), 1e-15);
  EXPECT_DOUBLE_EQ(scores.step, 0.25);
  const std::vector<double> pairs = {1, 1, 1};  // floored: 3 * (s1 - s0) * (2 - s0 - s1) / (2 / 48)
  const double s1 = score_from_elo(15);
  EXPECT_NEAR(sprt.llr(pairs), 3 * (s1 - 0.5) * (2 - 0.5 - s1) / (2.0 / 48), 1e-9);
  // alpha and beta keep their places: bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha).
  const Sprt lopsided{0, 15, 0.01, 0.2};
  EXPECT_NEAR(lopsided.lower_bound(), std::log(0.2 / 0.99), 1e-12);
  EXPECT_NEAR(lopsided.upper_bound(), std::log(0.8 / 0.01), 1e-12);
  const MeanSprt margins = MarginSprt{0, 0.1, 0.01, 0.2}.on_margins();
  EXPECT_NEAR(margins.lower_bound(), std::log(0.2 / 0.99), 1e-12);
  EXPECT_NEAR(margins.upper_bound(), std::log(0.8 / 0.01), 1e-12);
  EXPECT_DOUBLE_EQ(margins.step, 0.5);
}

// The W/D/L test's guard: with min_games, no decision before that many
// games, whatever the LLR; the pairs it needs round up (21 games: 11 pairs).
// The struct's default is no guard (the ladder's and the record's tests);
// the arena's --sprt-min-games defaults to kDefaultSprtMinGames.
TEST(Stats, TheEloSprtDecidesNothingBeforeItsMinimumGames) {
  EXPECT_EQ((Sprt{0, 15}.on_scores().min_pairs), 0);
  EXPECT_EQ(kDefaultSprtMinGames, 200);
  const Sprt guarded{0, 15, 0.05, 0.05, 20};
  EXPECT_EQ(guarded.on_scores().min_pairs, 10);
  const std::vector<double> nine(9, 0.0), ten(10, 0.0);  // pairs lost twice
  EXPECT_LT(guarded.llr(nine), guarded.lower_bound());      // the LLR is there...
  EXPECT_EQ(guarded.decide(nine), SprtDecision::kContinue);  // ...the decision is not
  EXPECT_EQ(guarded.decide(ten), SprtDecision::kAcceptH0);
  EXPECT_EQ((Sprt{0, 15, 0.05, 0.05}.decide(nine)), SprtDecision::kAcceptH0);  // unguarded, it decides at nine
  EXPECT_EQ((Sprt{0, 15, 0.05, 0.05, 21}.on_scores().min_pairs), 11);
}

}  // namespace
}  // namespace mushroom
