// A rating list from many programs' games, as chess testers' rating tools
// compute one: maximum likelihood over every game, with draws and the
// first-move advantage modelled, one anchor program fixed at 0, and a 95%
// interval for each rating from the curvature of the likelihood.
//
// The model, in Elo units, for a game where program i moves first against j:
//   z = r_i - r_j + advantage
//   P(first wins)  = F(z - draw_width)
//   P(second wins) = F(-z - draw_width)
//   P(draw)        = 1 - both
// with F(x) = 1 / (1 + 10^(-x / 400)). The ratings, the advantage and the
// draw width are all fitted.
//
// A program that never loses (or never wins) has no finite maximum, so the
// fit is a posterior mode with two weak priors, as BayesElo's is: each pair of
// programs that met also counts one virtual draw, half with each side first,
// and the draw width's logarithm is normal around 100 Elo with a spread of a
// factor 4.5 (without it, a wide enough draw width would explain the virtual
// draws of an unbeaten program at any rating). Against 40 real games a pair
// they move a rating by a few Elo.
#pragma once
#include <string>
#include <vector>

namespace mushroom {

struct RatedGame {
  int first = 0, second = 0;  // program indices
  int outcome = 0;            // +1 the first mover won, 0 draw, -1 the second won
};

struct ProgramRating {
  double elo = 0;
  double low = 0, high = 0;   // 95% interval (the anchor's is [0, 0])
  bool rated = false;         // false: no games, or no chain of games to the anchor
};

struct RatingList {
  std::vector<ProgramRating> programs;
  double advantage = 0, advantage_low = 0, advantage_high = 0;  // the first mover's, in Elo
  double draw_width = 0;  // Elo
  int iterations = 0;     // Newton steps taken
};

// Fits ratings to games among `programs` programs; `anchor` is fixed at 0.
// Throws std::invalid_argument on an index out of range.
RatingList fit_ratings(int programs, const std::vector<RatedGame>& games, int anchor = 0);

}  // namespace mushroom
