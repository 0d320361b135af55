#include "selfplay/labeller.h"

#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <vector>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "endgame/endgame_solver.h"
#include "mushroom/playout_positions.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "util/text.h"

namespace mushroom::selfplay {
namespace {

// Positions of every stage of the game that are not over.
std::vector<Position> live_positions(int count, uint64_t seed) {
  std::vector<Position> out;
  for (const Position& pos : playout_positions(count, seed))
    if (!pos.game_over()) out.push_back(pos);
  return out;
}

AlphaBetaResult fresh_search(AlphaBetaConfig config, const Position& pos, int depth) {
  config.tt_bits = 18;
  return AlphaBeta(config).search(pos, AlphaBeta::Clock::now() + std::chrono::hours(1), depth);
}

// "plain" is the search every label was made with before issue 71, and
// "playing" the shipped one: each label is that search's score, run afresh.
TEST(Labeller, EachSearchKindLabelsWithItsOwnSearch) {
  LabelConfig plain{.depth = 3};
  LabelConfig playing{.depth = 3, .search = "playing"};
  Labeller plain_labeller(plain, nullptr), playing_labeller(playing, nullptr);
  int differ = 0;
  for (const Position& pos : live_positions(60, 71)) {
    const Label a = plain_labeller.label(pos), b = playing_labeller.label(pos);
    EXPECT_EQ(a.labels.search_score, fresh_search(AlphaBetaConfig{}, pos, 3).score);
    EXPECT_EQ(b.labels.search_score, fresh_search(playing_search_config(), pos, 3).score);
    EXPECT_FALSE(a.labels.exact);
    EXPECT_GT(a.search_nodes, 0u);
    EXPECT_TRUE(pos.is_legal(a.best));
    differ += a.labels.search_score != b.labels.search_score;
  }
  EXPECT_GT(differ, 0);  // quiescence and the reductions change some labels
}

// With a learned evaluation (models/eval.bin, the one issue 71 shipped and
// labels with), each label is the search's score with that evaluation at
// its leaves, run afresh, and most differ from the hand evaluation's.
TEST(Labeller, ALearnedEvaluationLabelsWithItsOwnScores) {
  const nnue::Network net = nnue::read_network("models/eval.bin");
  const LabelConfig playing{.depth = 2, .search = "playing"};
  Labeller learned(playing, &net), hand(playing, nullptr);
  nnue::Evaluator evaluator(net);
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  int positions = 0, differ = 0;
  for (const Position& pos : live_positions(40, 75)) {
    const Label a = learned.label(pos), b = hand.label(pos);
    EXPECT_EQ(a.labels.search_score,
              AlphaBeta(config, &evaluator).search(pos, AlphaBeta::Clock::now() + std::chrono::hours(1), 2).score);
    EXPECT_EQ(b.labels.search_score, fresh_search(playing_search_config(), pos, 2).score);
    ++positions;
    differ += a.labels.search_score != b.labels.search_score;
  }
  EXPECT_GT(differ, positions / 2) << "the learned evaluation's labels are mostly the hand evaluation's";
}

// The parity mean is the mean of the two depths' scores, and its move is
// the deeper search's; an odd sum rounds away from zero, the same for
// either side.
TEST(Labeller, TheParityMeanAveragesTwoDepths) {
  Labeller mean(LabelConfig{.depth = 2, .parity_mean = true}, nullptr);
  for (const Position& pos : live_positions(30, 72)) {
    const AlphaBetaResult d2 = fresh_search(AlphaBetaConfig{}, pos, 2), d3 = fresh_search(AlphaBetaConfig{}, pos, 3);
    const Label label = mean.label(pos);
    EXPECT_EQ(label.labels.search_score, parity_mean(d2.score, d3.score));
    EXPECT_EQ(label.best, d3.best);
  }
  EXPECT_EQ(parity_mean(3, 4), 4);
  EXPECT_EQ(parity_mean(-3, -4), -4);
  EXPECT_EQ(parity_mean(3, -4), -1);
  EXPECT_EQ(parity_mean(-3, 4), 1);
  EXPECT_EQ(parity_mean(6, 10), 8);
  EXPECT_EQ(describe(LabelConfig{.depth = 5, .search = "playing", .parity_mean = true}), "playing depth 5+6 mean");
}

// Near the end the solver comes first: a proven position gets 16 times the
// exact margin; far from the end, or without exact_mushrooms, it is not tried.
TEST(Labeller, ProvenPositionsGetTheExactMargin) {
  LabelConfig config{.depth = 2, .exact_mushrooms = 170, .exact_nodes = 2'000'000};
  Labeller labeller(config, nullptr);
  int proven = 0;
  for (const Position& pos : endgame_positions(6, 73, 60)) {
    const Label label = labeller.label(pos);
    EXPECT_TRUE(label.tried_exact);
    if (!label.labels.exact) continue;
    ++proven;
    EndgameSolver solver;
    EndgameSolver::Limits limits;
    limits.nodes = 2'000'000;
    const std::optional<EndgameProof> proof = solver.solve(pos, limits);
    ASSERT_TRUE(proof.has_value());
    EXPECT_EQ(label.labels.search_score, kEvalScale * proof->margin);
    EXPECT_EQ(label.search_nodes, 0u);
  }
  EXPECT_GT(proven, 0);
  Labeller never(LabelConfig{.depth = 2}, nullptr);
  const Position late = endgame_positions(1, 74, 60).at(0);
  EXPECT_FALSE(never.prove(late).has_value());
  EXPECT_FALSE(never.label(late).tried_exact);
}

// label_probcut labels with the search the contest bot plays: the playing
// search pruned by the evaluation's Multi-ProbCut fit (models/eval.bin and
// models/eval.probcut, the shipped pair). Each label is that search's
// score, run afresh, its nodes those of the whole search; at depth 5 (where
// ProbCut reaches nodes with 4 plies left) some labels change and the same
// positions cost fewer nodes than without the fit.
TEST(Labeller, ProbCutLabelsWithTheSearchThatShips) {
  const nnue::Network net = nnue::read_network("models/eval.bin");
  const ProbCutFit fit = read_probcut_fit("models/eval.probcut");
  const LabelConfig off{.depth = 5, .search = "playing"};
  LabelConfig on = off;
  on.probcut = true;
  Labeller pruned(on, &net, &fit), full(off, &net);
  nnue::Evaluator evaluator(net);
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  uint64_t pruned_nodes = 0, full_nodes = 0;
  int differ = 0;
  for (const Position& pos : live_positions(24, 84)) {
    const Label a = pruned.label(pos), b = full.label(pos);
    AlphaBeta search(config, &evaluator);
    search.set_probcut(&fit);
    const AlphaBetaResult r = search.search(pos, AlphaBeta::Clock::now() + std::chrono::hours(1), 5);
    EXPECT_EQ(a.labels.search_score, r.score);
    EXPECT_EQ(a.search_nodes, r.nodes);
    EXPECT_TRUE(pos.is_legal(a.best));
    pruned_nodes += a.search_nodes;
    full_nodes += b.search_nodes;
    differ += a.labels.search_score != b.labels.search_score;
  }
  EXPECT_GT(differ, 0) << "no label changed: was the fit used?";
  EXPECT_LT(pruned_nodes, full_nodes) << "ProbCut's labels cost no fewer nodes at equal depth";
  EXPECT_EQ(describe(on), "playing depth 5 with ProbCut");
}

// ProbCut's shallow searches are nodes of the label's search: a fit whose
// predictions never clear the window (a spread of 125 cells) runs them at
// every node it reaches, at depth 6 two plies deep, and cuts none. Its
// labels cost a quarter more nodes than the search without it (1.249
// times, on these positions). Their table entries alone change the main
// tree by less: counted without the shallow searches' nodes (alpha-beta's
// probcut() putting its node count back) the same labels cost 1.093 times,
// which this test refuses.
TEST(Labeller, ProbCutsShallowSearchesAreCountedInTheLabelsNodes) {
  ProbCutFit never_cuts;  // the hand evaluation's, made up
  for (int band = 0; band < ProbCutFit::kBands; ++band)
    for (const auto& [depth, shallow] : std::vector<std::pair<int, int>>{{4, 2}, {5, 3}, {6, 4}})
      never_cuts.set(band, ProbCutPair{.depth = depth, .shallow = shallow, .slope = 1, .offset = 0,
                                       .spread = 125.0 * kEvalScale / 1.5, .samples = 100, .correlation = 0.9});
  const LabelConfig plain{.depth = 6, .search = "playing"};
  LabelConfig on = plain;
  on.probcut = true;
  Labeller tried(on, nullptr, &never_cuts), without(plain, nullptr);
  uint64_t tried_nodes = 0, plain_nodes = 0;
  for (const Position& pos : live_positions(12, 85)) {
    tried_nodes += tried.label(pos).search_nodes;
    plain_nodes += without.label(pos).search_nodes;
  }
  EXPECT_GT(double(tried_nodes), 1.17 * double(plain_nodes))
      << "the shallow searches' nodes are not in the label's count: " << tried_nodes << " against " << plain_nodes;
}

// A fit goes with the evaluation it was made with: another evaluation's is
// refused naming the fit and both hashes, as the search agents refuse it;
// so is ProbCut without a fit, a fit without ProbCut, and ProbCut on the
// plain search (the fits are the playing search's).
TEST(Labeller, AFitForAnotherEvaluationIsRefusedByName) {
  const nnue::Network net = nnue::read_network("models/eval.bin");
  const ProbCutFit other = read_probcut_fit("models/eval-2h-norandom-gen1.probcut");
  const ProbCutFit own = read_probcut_fit("models/eval.probcut");
  LabelConfig on{.depth = 5, .search = "playing"};
  on.probcut = true;
  auto refused = [&](const std::function<void()>& make, const std::vector<std::string>& words) {
    try {
      make();
      ADD_FAILURE() << "taken: " << words.front();
    } catch (const std::invalid_argument& e) {
      for (const std::string& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
  };
  const std::string ours = probcut_evaluation_of_bytes(read_file("models/eval.bin"));
  refused([&] { check_label_fit(on, &net, &other, "models/eval-2h-norandom-gen1.probcut"); },
          {"models/eval-2h-norandom-gen1.probcut", other.evaluation, ours});
  refused([&] { Labeller(on, &net, &other); }, {"was made with evaluation " + other.evaluation, ours});
  refused([&] { Labeller(on, nullptr, &own); }, {"was made with evaluation " + own.evaluation, "(hand)"});
  refused([&] { Labeller(on, &net, nullptr); }, {"label_probcut is on but no Multi-ProbCut fit"});
  refused([&] { Labeller(LabelConfig{.depth = 5, .search = "playing"}, &net, &own); }, {"label_probcut is off"});
  LabelConfig plain = on;
  plain.search = "plain";
  refused([&] { Labeller(plain, &net, &own); }, {"label_search = \"playing\""});
  EXPECT_NO_THROW(Labeller(on, &net, &own));
}

// The focus depth labels the positions of its band, and only those, with
// the search at that depth (the parity mean one deeper from there); the
// band's ends are in it.
TEST(Labeller, TheFocusBandIsLabelledAtItsOwnDepth) {
  const std::vector<Position> positions = live_positions(80, 73);
  int depths_differ = 0, checked = 0;
  for (const Position& pos : positions) {
    const int left = pos.mushrooms_left();
    // A band around this position, and one that just misses it on each side.
    const LabelConfig focused{.depth = 2, .focus_depth = 3, .focus_min = left, .focus_max = left};
    const LabelConfig band_above{.depth = 2, .focus_depth = 3, .focus_min = left + 1, .focus_max = 200};
    const LabelConfig band_below{.depth = 2, .focus_depth = 3, .focus_min = -1, .focus_max = left - 1};
    EXPECT_EQ(focused.depth_at(left), 3);
    EXPECT_EQ(band_above.depth_at(left), 2);
    EXPECT_EQ(band_below.depth_at(left), 2);
    const AlphaBetaResult d2 = fresh_search(AlphaBetaConfig{}, pos, 2), d3 = fresh_search(AlphaBetaConfig{}, pos, 3);
    const Label at_focus = Labeller(focused, nullptr).label(pos);
    EXPECT_EQ(at_focus.labels.search_score, d3.score);
    EXPECT_EQ(at_focus.best, d3.best);
    EXPECT_EQ(Labeller(band_above, nullptr).label(pos).labels.search_score, d2.score);
    EXPECT_EQ(Labeller(band_below, nullptr).label(pos).labels.search_score, d2.score);
    depths_differ += d2.score != d3.score;
    ++checked;
  }
  EXPECT_GT(depths_differ, 0);  // the depths disagree somewhere, so the checks above can tell them apart
  ASSERT_EQ(checked, int(positions.size()));
  // With the parity mean, the band's searches are focus_depth and one
  // deeper, on positions where that mean differs from both the label depth's
  // mean and focus_depth alone.
  const LabelConfig mean{.depth = 2, .parity_mean = true, .focus_depth = 3, .focus_min = 0, .focus_max = 170};
  int informative = 0;
  for (const Position& pos : positions) {
    const AlphaBetaResult d2 = fresh_search(AlphaBetaConfig{}, pos, 2), d3 = fresh_search(AlphaBetaConfig{}, pos, 3),
                          d4 = fresh_search(AlphaBetaConfig{}, pos, 4);
    const Label label = Labeller(mean, nullptr).label(pos);
    EXPECT_EQ(label.labels.search_score, parity_mean(d3.score, d4.score));
    EXPECT_EQ(label.best, d4.best);
    informative += parity_mean(d3.score, d4.score) != d3.score &&
                   parity_mean(d3.score, d4.score) != parity_mean(d2.score, d3.score);
    if (informative >= 3) break;
  }
  EXPECT_GE(informative, 1);
  EXPECT_EQ(describe(LabelConfig{.depth = 5, .search = "playing", .focus_depth = 7}),
            "playing depth 5 (7 at 95-130 left)");
  EXPECT_EQ(describe(LabelConfig{.depth = 5, .search = "playing", .parity_mean = true, .focus_depth = 7}),
            "playing depth 5+6 mean (7+8 at 95-130 left)");
  EXPECT_EQ(describe(LabelConfig{.depth = 5, .search = "playing"}), "playing depth 5");
}

TEST(Labeller, BadSettingsAreRefusedByName) {
  try {
    Labeller(LabelConfig{.depth = 5, .search = "quiet"}, nullptr);
    FAIL() << "an unknown search was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'quiet'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Labeller(LabelConfig{.depth = 0}, nullptr), std::invalid_argument);
  EXPECT_THROW(Labeller(LabelConfig{.depth = 13}, nullptr), std::invalid_argument);
  for (const int bad : {13, -1}) {
    try {
      Labeller(LabelConfig{.depth = 4, .focus_depth = bad}, nullptr);
      FAIL() << "focus depth " << bad << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("focus depth " + std::to_string(bad) + " is outside [1, 12]"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(check_label_config(LabelConfig{.depth = 4, .focus_depth = 12}));
  EXPECT_NO_THROW(check_label_config(LabelConfig{.depth = 4, .focus_depth = 1}));
  EXPECT_NO_THROW(check_label_config(LabelConfig{.depth = 4, .focus_depth = 6, .focus_min = 100, .focus_max = 100}));
  try {
    Labeller(LabelConfig{.depth = 4, .focus_depth = 6, .focus_min = 131, .focus_max = 95}, nullptr);
    FAIL() << "an empty focus band was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("131..95"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::selfplay
