#include "alphabeta/probcut.h"

#include <gtest/gtest.h>

#include <chrono>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "util/parse_error.h"
#include "util/rng.h"

namespace mushroom {

// A friend of AlphaBeta: one null-window node's ProbCut decision, from an
// empty table, as a node one ply below a root meets it.
struct ProbCutProbe {
  static constexpr int kNoCut = AlphaBeta::kNoCut;
  // beta or more: cut high; beta - 1 or less: cut low; kNoCut: searched on.
  static int cut(AlphaBeta& search, const Position& pos, const ProbCutPair& pair, int beta) {
    search.clear();
    search.start(false, 0, std::nullopt);
    if (search.evaluator_) search.evaluator_->set_root(pos);
    Position node = pos;
    return search.probcut(node, pair, beta - 1, beta, 1);
  }
};

namespace {

ProbCutPair pair_of(int depth, int shallow, double slope, double offset, double spread) {
  ProbCutPair p;
  p.depth = depth;
  p.shallow = shallow;
  p.slope = slope;
  p.offset = offset;
  p.spread = spread;
  p.samples = 100;
  p.correlation = 0.9;
  return p;
}

// The same pair at every band for each (depth, shallow).
ProbCutFit everywhere(const std::vector<std::pair<int, int>>& pairs, double slope, double offset, double spread) {
  ProbCutFit fit;
  for (int band = 0; band < ProbCutFit::kBands; ++band)
    for (const auto& [d, s] : pairs) fit.set(band, pair_of(d, s, slope, offset, spread));
  return fit;
}

TEST(ProbCutFit, BandsCoverEveryCountOfMushrooms) {
  EXPECT_EQ(ProbCutFit::band_of(0), 0);
  EXPECT_EQ(ProbCutFit::band_of(19), 0);
  EXPECT_EQ(ProbCutFit::band_of(20), 1);
  EXPECT_EQ(ProbCutFit::band_of(170), ProbCutFit::kBands - 1);
  EXPECT_EQ(ProbCutFit::band_last(ProbCutFit::kBands - 1), 170);
  for (int left = 0; left <= 170; ++left) {
    const int band = ProbCutFit::band_of(left);
    EXPECT_LE(ProbCutFit::band_first(band), left);
    EXPECT_GE(ProbCutFit::band_last(band), left);
  }
}

TEST(ProbCutFit, TheFileReadsBackAsWritten) {
  ProbCutFit fit;
  fit.evaluation = "0123456789abcdef";
  fit.set(3, pair_of(8, 4, 0.97531, -3.25, 41.5));
  fit.set(5, pair_of(6, 2, 1.0625, 7.5, 60.125));
  fit.set(4, pair_of(ProbCutFit::kExactDepth, 3, 0.8, 1.0, 90.0));
  const ProbCutFit back = parse_probcut_fit(format_probcut_fit(fit, "made by a test\nsecond line"), "fit.txt");
  EXPECT_EQ(back.evaluation, fit.evaluation);
  ASSERT_EQ(back.entries().size(), 3u);
  ASSERT_NE(back.exact_at(ProbCutFit::band_first(4)), nullptr);
  EXPECT_EQ(back.exact_at(ProbCutFit::band_first(4))->shallow, 3);
  EXPECT_EQ(back.at(ProbCutFit::band_first(4), ProbCutFit::kExactDepth), nullptr) << "the search never sees it";
  EXPECT_EQ(back.exact_at(ProbCutFit::band_first(3)), nullptr);
  const ProbCutPair* p = back.at(ProbCutFit::band_first(3) + 5, 8);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->shallow, 4);
  EXPECT_NEAR(p->slope, 0.97531, 1e-5);
  EXPECT_NEAR(p->offset, -3.25, 1e-3);
  EXPECT_NEAR(p->spread, 41.5, 1e-3);
  EXPECT_EQ(p->samples, 100);
  EXPECT_EQ(back.at(ProbCutFit::band_first(3), 7), nullptr);
  EXPECT_EQ(back.at(ProbCutFit::band_first(4), 8), nullptr);
}

// Every malformed file is refused with its line and the problem named.
TEST(ProbCutFit, MalformedFilesAreRefusedByLine) {
  const std::string good = "evaluation hand\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"evaluation hand\nsigma 3\n", "fit.txt:2: unknown key 'sigma'"},
      {"pair 60 79 8 4 1 0 30 100 0.9\n", "no `evaluation` line"},
      {"evaluation Hand\n", "neither `hand`"},
      {"evaluation hand\nevaluation hand\n", "given twice"},
      {good + "pair 60 79 8 4 1 0 30 100\n", "takes 9 values"},
      {good + "pair 60 79 8 x 1 0 30 100 0.9\n", "not a number"},
      {good + "pair 60 80 8 4 1 0 30 100 0.9\n", "is not a band of 20"},
      {good + "pair 60 79 8 3 1 0 30 100 0.9\n", "of its parity"},
      {good + "pair 60 79 8 8 1 0 30 100 0.9\n", "below depth"},
      {good + "pair 60 79 40 4 1 0 30 100 0.9\n", "depth 40 is outside"},
      {good + "pair 60 79 8 4 0 0 30 100 0.9\n", "slope must be above 0"},
      {good + "pair 60 79 8 4 1 0 -1 100 0.9\n", "spread must be above 0"},
      {good + "pair 60 79 8 4 1 0 30 100 0.9\npair 60 79 8 2 1 0 30 100 0.9\n", "fit.txt:3: band 60-79 at depth 8 is given twice"},
      {good + "pair 60 79 exact 4 1 0 30 100 0.9\npair 60 79 exact 2 1 0 30 100 0.9\n", "at depth exact is given twice"},
      {good + "pair 60 79 exact 0 1 0 30 100 0.9\n", "shallow depth 0 is outside"},
  };
  for (const auto& [text, expected] : bad) {
    try {
      parse_probcut_fit(text, "fit.txt");
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(parse_probcut_fit("# a comment\n\nevaluation hand  # trailing\n", "fit.txt"));
}

TEST(ProbCutFit, AFitOfAnotherEvaluationIsRefusedNamingBoth) {
  ProbCutFit fit;
  fit.evaluation = "00000000000000aa";
  EXPECT_NO_THROW(check_probcut_evaluation(fit, "00000000000000aa", "f.txt"));
  try {
    check_probcut_evaluation(fit, "hand", "f.txt");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("f.txt"), std::string::npos) << what;
    EXPECT_NE(what.find("00000000000000aa"), std::string::npos) << what;
    EXPECT_NE(what.find("hand"), std::string::npos) << what;
  }
}

// Least squares finds the line and the noise it was drawn with.
TEST(ProbCutFit, LeastSquaresRecoversTheLineAndItsSpread) {
  Rng rng(5);
  std::vector<std::pair<double, double>> xy;
  for (int i = 0; i < 20000; ++i) {
    const double x = rng.uniform_double() * 800 - 400;
    // The sum of 12 uniforms less 6 has mean 0 and variance 1.
    double noise = -6;
    for (int k = 0; k < 12; ++k) noise += rng.uniform_double();
    xy.emplace_back(x, 0.9 * x + 12 + 25 * noise);
  }
  const ProbCutPair p = fit_probcut_pair(7, 3, xy);
  EXPECT_EQ(p.samples, 20000);
  EXPECT_NEAR(p.slope, 0.9, 0.01);
  EXPECT_NEAR(p.offset, 12, 1.0);
  EXPECT_NEAR(p.spread, 25, 0.5);
  EXPECT_GT(p.correlation, 0.95);
  EXPECT_EQ(fit_probcut_pair(7, 3, {{1, 1}, {2, 2}}).samples, 0) << "two points fit nothing";
  EXPECT_EQ(fit_probcut_pair(7, 3, {{1, 1}, {1, 2}, {1, 3}}).samples, 0) << "shallow values that do not vary";
}

std::vector<Position> middle_game_positions(int count) {
  std::vector<Position> out;
  for (const Position& p : playout_positions(count * 8, 77)) {
    MoveList list;
    if (p.mushrooms_left() >= 90 && generate_moves(p, list) >= 20) out.push_back(p);
    if (int(out.size()) == count) break;
  }
  return out;
}

// A fit that cannot cut anywhere (bounds out of any search's reach, or no
// pair at these depths) leaves the tree node for node as it was.
TEST(ProbCutSearch, AFitThatCannotCutLeavesTheTreeAsItWas) {
  const ProbCutFit unreachable = everywhere({{4, 2}, {5, 3}, {6, 2}}, 1.0, 0.0, 5000.0);
  const ProbCutFit deeper_only = everywhere({{12, 8}}, 1.0, 0.0, 1.0);
  for (const Position& p : middle_game_positions(4)) {
    const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
    AlphaBetaConfig config = playing_search_config();
    config.tt_bits = 16;
    const AlphaBetaResult off = AlphaBeta(config).search(p, far, 6);
    for (const ProbCutFit* fit : {&unreachable, &deeper_only}) {
      AlphaBeta on(config);
      on.set_probcut(fit);
      const AlphaBetaResult r = on.search(p, far, 6);
      EXPECT_EQ(r.nodes, off.nodes);
      EXPECT_EQ(r.score, off.score);
      EXPECT_EQ(r.best, off.best);
    }
  }
}

// A tight fit cuts: fewer nodes at the same depth, the move legal, and the
// wider the confidence the fewer the cuts (more nodes).
TEST(ProbCutSearch, ATightFitCutsAndConfidenceControlsHowMuch) {
  const ProbCutFit fit = everywhere({{3, 1}, {4, 2}, {5, 3}, {6, 2}}, 1.0, 0.0, 16.0);
  uint64_t off_nodes = 0, tight_nodes = 0, loose_nodes = 0;
  for (const Position& p : middle_game_positions(6)) {
    const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
    AlphaBetaConfig config = playing_search_config();
    config.tt_bits = 16;
    config.probcut_depth = 3;
    off_nodes += AlphaBeta(config).search(p, far, 6).nodes;
    for (const double sigmas : {0.5, 6.0}) {
      config.probcut_sigmas = sigmas;
      AlphaBeta on(config);
      on.set_probcut(&fit);
      const AlphaBetaResult r = on.search(p, far, 6);
      EXPECT_TRUE(r.best.is_pass() || p.is_legal(r.best));
      EXPECT_EQ(r.depth, 6);
      (sigmas < 1 ? tight_nodes : loose_nodes) += r.nodes;
    }
  }
  EXPECT_LT(tight_nodes, off_nodes);
  EXPECT_LT(tight_nodes, loose_nodes);
}

// A cut returns the bound its prediction clears, and only then: fail high
// (a value of at least beta) where the shallow value v predicts the deep one
// `sigmas` spreads above beta (slope * v + offset - margin >= beta), fail
// low (at most alpha) where it predicts it as far below alpha, and no cut
// in between. v comes from a separate search to the shallow depth; without
// reductions or quiescence both are plain alpha-beta, whose null-window
// answers agree with the full value's side of the bound.
TEST(ProbCutSearch, ACutReturnsTheBoundItsPredictionClears) {
  AlphaBetaConfig config;
  config.lmr = false;
  config.tt_bits = 14;
  // No tie of slope * v + offset +- margin with an integer bound: a decimal .35 against .9 * v.
  const ProbCutPair pair = pair_of(4, 2, 0.9, 8.3, 21.1);
  const double margin = config.probcut_sigmas * pair.spread;
  int highs = 0, lows = 0, none = 0;
  for (const Position& root : middle_game_positions(3)) {
    MoveList list;
    generate_moves(root, list);
    for (int i = 0; i < list.size && i < 5; ++i) {  // nodes one ply below the root, as ProbCut needs
      Position pos = root;
      pos.apply(list[i]);
      const int v = AlphaBeta(config).search(pos, AlphaBeta::Clock::now() + std::chrono::hours(1), pair.shallow).score;
      const double predicted = pair.slope * v + pair.offset;
      for (int beta = v - 96; beta <= v + 96; beta += 8) {
        AlphaBeta search(config);
        const int cut = ProbCutProbe::cut(search, pos, pair, beta);
        if (predicted - margin >= beta) {
          ++highs;
          EXPECT_GE(cut, beta) << "a fail high below beta: v " << v << ", beta " << beta;
          EXPECT_NE(cut, ProbCutProbe::kNoCut) << "v " << v << ", beta " << beta;
        } else if (predicted + margin <= beta - 1) {
          ++lows;
          EXPECT_LE(cut, beta - 1) << "a fail low above alpha: v " << v << ", alpha " << beta - 1;
        } else {
          ++none;
          EXPECT_EQ(cut, ProbCutProbe::kNoCut) << "a cut the prediction does not clear: v " << v << ", beta " << beta;
        }
      }
    }
  }
  EXPECT_GT(highs, 20);
  EXPECT_GT(lows, 20);
  EXPECT_GT(none, 20);
}

// A fit whose predictions lie past any score (a slope of 1e-300, an offset
// or spread of 1e300: finite and positive, so the reader takes them) cuts
// where it predicts, as any far prediction does, and not where it predicts
// nothing. Issue 101's fuzzing found the bound made an int out of int's
// range (undefined; on x86 INT_MIN, whose window then cut the wrong way).
TEST(ProbCutSearch, APredictionPastAnyScoreCutsAsItPredicts) {
  AlphaBeta search;
  const Position pos = playout_positions(1, 7).front();
  const int beta = 16;
  EXPECT_GE(ProbCutProbe::cut(search, pos, pair_of(4, 2, 1e-300, 1e300, 16), beta), beta) << "far above beta";
  EXPECT_LE(ProbCutProbe::cut(search, pos, pair_of(4, 2, 1e-300, -1e300, 16), beta), beta - 1) << "far below alpha";
  EXPECT_EQ(ProbCutProbe::cut(search, pos, pair_of(4, 2, 1.0, 0, 1e300), beta), ProbCutProbe::kNoCut)
      << "a spread so wide that nothing is predicted";
}

}  // namespace
}  // namespace mushroom
