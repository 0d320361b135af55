#include "arena/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mushroom {

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

namespace {
struct MeanVar {
  double mean = 0.5, var = 0;
  int n = 0;
};
MeanVar mean_var(const std::vector<double>& xs) {
  MeanVar mv;
  mv.n = int(xs.size());
  if (xs.empty()) return mv;
  double sum = 0;
  for (double x : xs) sum += x;
  mv.mean = sum / mv.n;
  double sq = 0;
  for (double x : xs) sq += (x - mv.mean) * (x - mv.mean);
  mv.var = sq / mv.n;
  return mv;
}

// The variance with a floor of step^2 / n, about what n values give when
// one is a step off the rest: with every value alike an LLR or an interval
// would otherwise be infinite or collapse to a point (MeanSprt::step).
double floored_variance(const MeanVar& mv, double step) {
  return std::max(mv.var, mv.n > 0 ? step * step / mv.n : 0.0);
}

constexpr double kPairScoreStep = 0.25;  // pair scores are quarters
}  // namespace

double likelihood_of_superiority(int wins, int losses) {
  if (wins + losses == 0) return 0.5;
  return 0.5 * (1.0 + std::erf(double(wins - losses) / std::sqrt(2.0 * double(wins + losses))));
}

EloEstimate estimate_elo(const std::vector<double>& pair_scores, int wins, int losses) {
  EloEstimate e;
  const MeanVar mv = mean_var(pair_scores);
  e.score = mv.mean;
  e.elo = elo_from_score(mv.mean);
  // With no spread at all (a clean sweep) the interval would collapse to a
  // point; floor the variance at what one pair off by a quarter would give.
  const double var = floored_variance(mv, kPairScoreStep);
  const double half_width = mv.n > 0 ? 1.959963984540054 * std::sqrt(var / mv.n) : 0.5;
  e.elo_low = elo_from_score(mv.mean - half_width);
  e.elo_high = elo_from_score(mv.mean + half_width);
  e.los = likelihood_of_superiority(wins, losses);
  return e;
}

std::array<int, 5> pentanomial_counts(const std::vector<double>& pair_scores) {
  std::array<int, 5> counts{};
  for (double x : pair_scores) counts[size_t(std::clamp(int(std::lround(4 * x)), 0, 4))]++;
  return counts;
}

NormalizedElo normalized_elo(const std::vector<double>& pair_scores) {
  NormalizedElo out;
  const MeanVar mv = mean_var(pair_scores);
  if (mv.n < 2 || mv.var <= 0) return out;
  const double unit = std::sqrt(2 * mv.var) / (800 / std::log(10.0));  // score per nElo point
  const double half_width = 1.959963984540054 * std::sqrt(mv.var / mv.n);
  out.nelo = (mv.mean - 0.5) / unit;
  out.low = (mv.mean - half_width - 0.5) / unit;
  out.high = (mv.mean + half_width - 0.5) / unit;
  out.valid = true;
  return out;
}

MeanInterval mean_interval(const std::vector<double>& values) {
  const MeanVar mv = mean_var(values);
  MeanInterval out;
  out.n = mv.n;
  if (mv.n == 0) return out;
  out.mean = mv.mean;
  // The sample variance (n - 1) from the population one.
  const double se = mv.n > 1 ? std::sqrt(mv.var * mv.n / (mv.n - 1) / mv.n) : 0.0;
  out.low = out.mean - 1.959963984540054 * se;
  out.high = out.mean + 1.959963984540054 * se;
  return out;
}

double MeanSprt::lower_bound() const { return std::log(beta / (1 - alpha)); }
double MeanSprt::upper_bound() const { return std::log((1 - beta) / alpha); }

double MeanSprt::llr(const std::vector<double>& values) const {
  const MeanVar mv = mean_var(values);
  if (mv.n < 2) return 0;
  return mv.n * (mu1 - mu0) * (2 * mv.mean - mu0 - mu1) / (2 * floored_variance(mv, step));
}

double MeanSprt::expected_pairs(const std::vector<double>& values) const {
  const MeanVar mv = mean_var(values);
  if (mv.n < 2) return std::numeric_limits<double>::infinity();
  const double drift = (mu1 - mu0) * (2 * mv.mean - mu0 - mu1) / (2 * floored_variance(mv, step));
  if (drift == 0) return std::numeric_limits<double>::infinity();
  return (drift > 0 ? upper_bound() : lower_bound()) / drift;
}

double MeanSprt::pairs_at_h1(const std::vector<double>& values) const {
  const MeanVar mv = mean_var(values);
  if (mv.n < 2) return std::numeric_limits<double>::infinity();
  return upper_bound() * 2 * floored_variance(mv, step) / ((mu1 - mu0) * (mu1 - mu0));
}

SprtDecision MeanSprt::decide(const std::vector<double>& values) const {
  if (int(values.size()) < min_pairs) return SprtDecision::kContinue;
  const double value = llr(values);
  if (value >= upper_bound()) return SprtDecision::kAcceptH1;
  if (value <= lower_bound()) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

MeanSprt Sprt::on_scores() const {
  return MeanSprt{score_from_elo(elo0), score_from_elo(elo1), alpha, beta, kPairScoreStep, (min_games + 1) / 2};
}

}  // namespace mushroom
