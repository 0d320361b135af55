// Match statistics on the logistic Elo scale.
//
// Games come in pairs (one board, sides swapped), and a pair's two results
// are correlated, so the variance is estimated per pair (the pentanomial
// model): each pair contributes its average score x in {0, .25, .5, .75, 1}.
#pragma once
#include <array>
#include <vector>

namespace mushroom {

double elo_from_score(double score);  // -400 log10(1/score - 1); +-inf at 1, 0
double score_from_elo(double elo);

struct EloEstimate {
  double score = 0.5;  // mean score per game
  double elo = 0, elo_low = 0, elo_high = 0;  // 95% interval
  double los = 0.5;    // likelihood of superiority
};

// pair_scores: the average score of each pair (x above). wins/losses: game
// counts for the LOS.
EloEstimate estimate_elo(const std::vector<double>& pair_scores, int wins, int losses);

// Likelihood of superiority from decisive games: 0.5 (1 + erf((W-L) / sqrt(2 (W+L)))).
double likelihood_of_superiority(int wins, int losses);

// How many pairs scored 0, 1/4, 1/2, 3/4 and 1 for the first program:
// LL, LD, DD or WL, WD, WW (the pentanomial counts fastchess reports).
std::array<int, 5> pentanomial_counts(const std::vector<double>& pair_scores);

// Normalized Elo: the score's distance from 1/2 in units of the pairs'
// spread, (mean - 1/2) / sqrt(2 var) * 800 / ln 10, with var the variance
// of the pair scores. Unlike Elo it does not grow with the draw rate, so it
// says how many games a difference takes to show. 95% interval from the
// mean's standard error. `valid` is false with fewer than two pairs or no
// spread at all.
struct NormalizedElo {
  double nelo = 0, low = 0, high = 0;
  bool valid = false;
};
NormalizedElo normalized_elo(const std::vector<double>& pair_scores);

// Mean of paired values (e.g. each board's mean score margin over its two
// games) with a 95% normal interval from the sample standard error.
struct MeanInterval {
  double mean = 0, low = 0, high = 0;
  int n = 0;
};
MeanInterval mean_interval(const std::vector<double>& values);

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

// The GSPRT on the mean of a bounded per-pair statistic (fishtest's normal
// approximation, server/fishtest/stats/LLRcalc.py): H0: mean = mu0 against
// H1: mean = mu1 with error rates alpha and beta,
//   LLR = n (mu1 - mu0) (2 m - mu0 - mu1) / (2 var),
// m and var the mean and population variance of the n pairs' values. The
// pentanomial W/D/L test is this on the pairs' scores (Sprt below); the
// margin test (arena/margin.h) is this on the pairs' capped margins.
struct MeanSprt {
  double mu0 = 0, mu1 = 0, alpha = 0.05, beta = 0.05;
  // The statistic's step between neighbouring values (0.25 for pair scores,
  // 0.5 cells for pair margins). With no spread at all the variance is
  // floored at step^2 / n, about what one pair a step off the rest gives,
  // so that a clean sweep has a finite LLR.
  double step = 0.25;
  // No decision before this many pairs (a guard against the crossings of a
  // few pairs whose spread is not yet known: both of the arena's tests
  // default to 100 pairs, docs/matches.md). The LLR itself is computed as
  // ever.
  int min_pairs = 0;
  double lower_bound() const;  // log(beta / (1 - alpha))
  double upper_bound() const;  // log((1 - beta) / alpha)
  double llr(const std::vector<double>& values) const;
  SprtDecision decide(const std::vector<double>& values) const;
  // Wald's estimate of the pairs this test takes to decide when the true
  // mean and spread are those of `values`: the bound the LLR drifts to,
  // divided by its mean step per pair (overshoot ignored). Infinite when
  // the mean sits where the LLR does not drift.
  double expected_pairs(const std::vector<double>& values) const;
  // The same when the true mean is mu1 at the spread of `values`: the
  // test's design figure, the pairs it takes to accept H1 on a real gain.
  double pairs_at_h1(const std::vector<double>& values) const;
};

// Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1
// on the pairs' scores: MeanSprt with mu = the score of each Elo.
// min_games: no decision before this many games (complete pairs' games;
// the arena's --sprt-min-games). At the real clock most pairs are draws
// (each side wins its first seat), and with no guard the test accepted H0
// after 38 games of the committed submission against itself; the guard's
// error rates are in docs/history/issue-99-the-margin.md.
constexpr int kDefaultSprtMinGames = 200;
struct Sprt {
  double elo0, elo1, alpha = 0.05, beta = 0.05;
  int min_games = 0;
  using Decision = SprtDecision;
  MeanSprt on_scores() const;
  double lower_bound() const { return on_scores().lower_bound(); }
  double upper_bound() const { return on_scores().upper_bound(); }
  double llr(const std::vector<double>& pair_scores) const { return on_scores().llr(pair_scores); }
  Decision decide(const std::vector<double>& pair_scores) const { return on_scores().decide(pair_scores); }
  // MeanSprt::expected_pairs on the pairs' scores: the resolution of a set
  // of boards; the same difference on other boards needs more or fewer.
  double expected_pairs(const std::vector<double>& pair_scores) const {
    return on_scores().expected_pairs(pair_scores);
  }
};

}  // namespace mushroom
