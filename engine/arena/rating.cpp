#include "arena/rating.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace mushroom {

namespace {

constexpr double kEloPerNat = 400.0 / 2.302585092994046;  // 400 / ln 10
constexpr double kZ95 = 1.959963984540054;

// log(100 Elo in natural units), and a spread of a factor e^1.5 = 4.5.
const double kDrawPriorLog = std::log(100.0 / kEloPerNat);
constexpr double kDrawPriorSd = 1.5;

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Game counts by (first, second) program: wins of the first mover, draws,
// wins of the second. Fractional, for the virtual draws.
struct Cell {
  int first, second;
  double wins = 0, draws = 0, losses = 0;
};

// The free parameters: the ratings of the rated programs but the anchor,
// then the advantage, then log(draw width), all in natural log-odds units.
class Likelihood {
 public:
  Likelihood(std::vector<Cell> cells, std::vector<int> slot) : cells_(std::move(cells)), slot_(std::move(slot)) {
    ratings_ = 0;
    for (int s : slot_) ratings_ = std::max(ratings_, s + 1);
  }
  int size() const { return ratings_ + 2; }
  double rating(const std::vector<double>& theta, int program) const {
    return slot_[size_t(program)] < 0 ? 0.0 : theta[size_t(slot_[size_t(program)])];
  }

  // The log-likelihood and its gradient.
  double value(const std::vector<double>& theta, std::vector<double>* gradient) const {
    if (gradient) gradient->assign(size_t(size()), 0.0);
    const double a = theta[size_t(ratings_)], d = std::exp(theta[size_t(ratings_) + 1]);
    double total = 0;
    for (const Cell& c : cells_) {
      const double z = rating(theta, c.first) - rating(theta, c.second) + a;
      const double p_win = logistic(z - d), p_loss = logistic(-z - d);
      const double p_draw = std::max(1e-300, logistic(z + d) - logistic(z - d));
      total += c.wins * std::log(p_win) + c.losses * std::log(p_loss) + c.draws * std::log(p_draw);
      if (!gradient) continue;
      const auto slope = [](double x) { const double s = logistic(x); return s * (1 - s); };
      // d log P / dz and d log P / dd for each result.
      const double dz = c.wins * (1 - p_win) - c.losses * (1 - p_loss) +
                        c.draws * (slope(z + d) - slope(z - d)) / p_draw;
      const double dd = -c.wins * (1 - p_win) - c.losses * (1 - p_loss) +
                        c.draws * (slope(z + d) + slope(z - d)) / p_draw;
      if (slot_[size_t(c.first)] >= 0) (*gradient)[size_t(slot_[size_t(c.first)])] += dz;
      if (slot_[size_t(c.second)] >= 0) (*gradient)[size_t(slot_[size_t(c.second)])] -= dz;
      (*gradient)[size_t(ratings_)] += dz;
      (*gradient)[size_t(ratings_) + 1] += dd * d;  // d is exp(theta)
    }
    // The draw width's prior (rating.h).
    const double off = (theta[size_t(ratings_) + 1] - kDrawPriorLog) / kDrawPriorSd;
    total -= 0.5 * off * off;
    if (gradient) (*gradient)[size_t(ratings_) + 1] -= off / kDrawPriorSd;
    return total;
  }

  // The negative Hessian, by central differences of the exact gradient.
  std::vector<std::vector<double>> curvature(const std::vector<double>& theta) const {
    const int n = size();
    std::vector<std::vector<double>> h(size_t(n), std::vector<double>(size_t(n), 0.0));
    std::vector<double> plus, minus;
    for (int k = 0; k < n; ++k) {
      const double step = 1e-5 * std::max(1.0, std::abs(theta[size_t(k)]));
      std::vector<double> t = theta;
      t[size_t(k)] += step;
      value(t, &plus);
      t[size_t(k)] -= 2 * step;
      value(t, &minus);
      for (int i = 0; i < n; ++i) h[size_t(i)][size_t(k)] = -(plus[size_t(i)] - minus[size_t(i)]) / (2 * step);
    }
    for (size_t i = 0; i < h.size(); ++i)  // symmetrize the rounding away
      for (size_t k = 0; k < i; ++k) h[i][k] = h[k][i] = 0.5 * (h[i][k] + h[k][i]);
    return h;
  }

 private:
  std::vector<Cell> cells_;
  std::vector<int> slot_;  // program -> parameter index, -1 for the anchor and the unrated
  int ratings_ = 0;
};

// Inverts a symmetric positive definite matrix by Gauss-Jordan elimination
// with partial pivoting (a few dozen rows at most). False if singular.
bool invert(std::vector<std::vector<double>> m, std::vector<std::vector<double>>& inverse) {
  const size_t n = m.size();
  inverse.assign(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inverse[i][i] = 1;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r)
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    if (std::abs(m[pivot][col]) < 1e-12) return false;
    std::swap(m[col], m[pivot]);
    std::swap(inverse[col], inverse[pivot]);
    const double scale = 1.0 / m[col][col];
    for (size_t k = 0; k < n; ++k) m[col][k] *= scale, inverse[col][k] *= scale;
    for (size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0) continue;
      const double f = m[r][col];
      for (size_t k = 0; k < n; ++k) m[r][k] -= f * m[col][k], inverse[r][k] -= f * inverse[col][k];
    }
  }
  return true;
}

// The programs joined to the anchor by a chain of games.
std::vector<bool> connected_to(int anchor, int programs, const std::vector<Cell>& cells) {
  std::vector<bool> reached(size_t(programs), false);
  reached[size_t(anchor)] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (const Cell& c : cells)
      if (reached[size_t(c.first)] != reached[size_t(c.second)]) {
        reached[size_t(c.first)] = reached[size_t(c.second)] = true;
        grew = true;
      }
  }
  return reached;
}

}  // namespace

RatingList fit_ratings(int programs, const std::vector<RatedGame>& games, int anchor) {
  if (programs < 1) throw std::invalid_argument("a rating list needs at least one program");
  if (anchor < 0 || anchor >= programs) throw std::invalid_argument("the anchor program is out of range");
  std::map<std::pair<int, int>, Cell> by_seats;
  for (const RatedGame& g : games) {
    if (g.first < 0 || g.first >= programs || g.second < 0 || g.second >= programs || g.first == g.second)
      throw std::invalid_argument("a rated game names a program out of range, or one program on both sides");
    Cell& c = by_seats.try_emplace({g.first, g.second}, Cell{g.first, g.second}).first->second;
    (g.outcome > 0 ? c.wins : g.outcome < 0 ? c.losses : c.draws) += 1;
  }
  // The prior: one virtual draw for each pair that met, half in each seat.
  std::map<std::pair<int, int>, bool> met;
  for (const auto& [seats, cell] : by_seats) met[{std::min(seats.first, seats.second), std::max(seats.first, seats.second)}] = true;
  for (const auto& [pair, unused] : met) {
    for (const auto& seats : {pair, std::make_pair(pair.second, pair.first)})
      by_seats.try_emplace(seats, Cell{seats.first, seats.second}).first->second.draws += 0.5;
  }
  std::vector<Cell> all;
  for (const auto& [seats, cell] : by_seats) all.push_back(cell);
  const std::vector<bool> reached = connected_to(anchor, programs, all);
  std::vector<Cell> cells;
  for (const Cell& c : all)
    if (reached[size_t(c.first)]) cells.push_back(c);
  std::vector<int> slot(size_t(programs), -1);
  int next = 0;
  for (int p = 0; p < programs; ++p)
    if (p != anchor && reached[size_t(p)]) slot[size_t(p)] = next++;

  RatingList list;
  list.programs.resize(size_t(programs));
  list.programs[size_t(anchor)].rated = true;
  if (cells.empty()) return list;

  const Likelihood likelihood(cells, slot);
  const int n = likelihood.size();
  std::vector<double> theta(size_t(n), 0.0), gradient;
  theta[size_t(n) - 1] = kDrawPriorLog;
  double current = likelihood.value(theta, &gradient);
  // Newton's method with a backtracking line search: the log-likelihood is
  // concave in the ratings and the advantage, and smooth in log(width).
  for (int iteration = 0; iteration < 100; ++iteration) {
    list.iterations = iteration + 1;
    std::vector<std::vector<double>> inverse;
    std::vector<double> step(size_t(n), 0.0);
    if (invert(likelihood.curvature(theta), inverse)) {
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) step[size_t(i)] += inverse[size_t(i)][size_t(k)] * gradient[size_t(k)];
    } else {
      step = gradient;  // not curved enough yet: a gradient step
    }
    double scale = 1, next_value = 0;
    std::vector<double> trial, next_gradient;
    for (int halving = 0; halving < 40; ++halving, scale *= 0.5) {
      trial = theta;
      for (int i = 0; i < n; ++i) trial[size_t(i)] += scale * step[size_t(i)];
      next_value = likelihood.value(trial, &next_gradient);
      if (std::isfinite(next_value) && next_value >= current - 1e-12) break;
    }
    const double gain = next_value - current;
    theta = trial, gradient = next_gradient, current = next_value;
    double largest = 0;
    for (double g : gradient) largest = std::max(largest, std::abs(g));
    if (largest < 1e-9 || std::abs(gain) < 1e-13) break;
  }

  std::vector<std::vector<double>> covariance;
  const bool curved = invert(likelihood.curvature(theta), covariance);
  const auto interval = [&](int index, double value, double& low, double& high) {
    const double sd = curved ? std::sqrt(std::max(0.0, covariance[size_t(index)][size_t(index)])) : INFINITY;
    low = (value - kZ95 * sd) * kEloPerNat;
    high = (value + kZ95 * sd) * kEloPerNat;
  };
  for (int p = 0; p < programs; ++p) {
    if (slot[size_t(p)] < 0) continue;
    ProgramRating& r = list.programs[size_t(p)];
    r.rated = true;
    r.elo = theta[size_t(slot[size_t(p)])] * kEloPerNat;
    interval(slot[size_t(p)], theta[size_t(slot[size_t(p)])], r.low, r.high);
  }
  list.advantage = theta[size_t(n) - 2] * kEloPerNat;
  interval(n - 2, theta[size_t(n) - 2], list.advantage_low, list.advantage_high);
  list.draw_width = std::exp(theta[size_t(n) - 1]) * kEloPerNat;
  return list;
}

}  // namespace mushroom
