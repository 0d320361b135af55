// The learned evaluation inside alpha-beta, as the agents wire them: the
// search sees only the evaluation seam (mushroom/static_evaluator.h), so a
// network that is the hand evaluation searches the hand evaluation's tree,
// and the integer runtime's paths search the same tree.
#include <gtest/gtest.h>

#include <chrono>

#include "alphabeta/alphabeta.h"
#include "mushroom/playout_positions.h"
#include "nnue/evaluator.h"
#include "nnue/test_util.h"

namespace mushroom {
namespace {

TEST(NnueSearch, TheHandEquivalentNetworkSearchesTheHandEvaluationsTree) {
  nnue::Evaluator learned(nnue::Network::hand_equivalent({32, 8, 8}));
  for (const Position& p : playout_positions(4, 8)) {
    const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
    const AlphaBetaResult hand = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}).search(p, far, 4);
    const AlphaBetaResult seam = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}, &learned).search(p, far, 4);
    EXPECT_EQ(hand.best, seam.best);
    EXPECT_EQ(hand.score, seam.score);
    EXPECT_EQ(hand.nodes, seam.nodes);
  }
}

// A network with mobility inputs plays the same move at the same score,
// after the same nodes, whichever path (SIMD or scalar) runs it.
TEST(NnueSearch, MobilityInputsSearchTheSameTreeOnEveryPath) {
  const nnue::Network model = nnue::random_network({32, 16, 8, 1, 1, true}, 29);
  nnue::Evaluator simd(model, true), scalar(model, false);
  for (const Position& p : playout_positions(3, 43)) {
    const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
    const AlphaBetaResult a = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}, &simd).search(p, far, 3);
    const AlphaBetaResult b = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}, &scalar).search(p, far, 3);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.score, b.score);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_GT(a.nodes, 100u);
  }
}

}  // namespace
}  // namespace mushroom
