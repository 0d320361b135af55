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

// Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1
// with error rates alpha and beta, on the pairs' scores, using the normal
// approximation LLR = n (s1 - s0) (2 m - s0 - s1) / (2 var).
struct Sprt {
  double elo0, elo1, alpha = 0.05, beta = 0.05;
  enum class Decision { kContinue, kAcceptH0, kAcceptH1 };
  double lower_bound() const;  // log(beta / (1 - alpha))
  double upper_bound() const;  // log((1 - beta) / alpha)
  double llr(const std::vector<double>& pair_scores) const;
  Decision decide(const std::vector<double>& pair_scores) const;
  // Wald's estimate of the pairs this test takes to decide when the true
  // mean and spread are those of pair_scores: the bound the LLR drifts to,
  // divided by its mean step per pair (overshoot ignored). The resolution
  // of a set of boards: the same difference on other boards needs more or
  // fewer. Infinite when the mean sits where the LLR does not drift.
  double expected_pairs(const std::vector<double>& pair_scores) const;
};

}  // namespace mushroom
