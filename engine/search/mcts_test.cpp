#include "search/mcts.h"

#include <gtest/gtest.h>

#include <numeric>

#include "search/tree_game_test_util.h"

namespace mushroom {
namespace {

using testing::TreeEvaluator;
using testing::TreeGame;
using testing::tree;

MctsConfig plain_config() {
  MctsConfig c;
  c.score_weight = 0;  // utilities are the values, for hand checking
  c.fpu_reduction = 0;
  c.c_puct = 1.0;
  return c;
}

// Root 0 (player 0) -> 1, 2; node 1 -> 3, 4; node 2 -> 5, 6. Leaves 3..6.
void build_two_level_tree() {
  tree().assign(7, {});
  tree()[0].children = {1, 2};
  tree()[1].children = {3, 4};
  tree()[2].children = {5, 6};
  tree()[1].eval_value = -0.5;  // player 1 to move at 1: bad for player 1
  tree()[2].eval_value = 0.2;
  for (int leaf = 3; leaf <= 6; ++leaf) tree()[size_t(leaf)].terminal_value = 0;  // draws
}

TEST(Mcts, SelectionAndBackupByHand) {
  build_two_level_tree();
  Mcts<TreeGame> mcts(plain_config());
  mcts.reset({0, 0});
  TreeEvaluator eval;
  // Sim 1 expands the root (its eval is 0).
  mcts.run(eval, 1);
  EXPECT_EQ(mcts.root().visits, 1u);
  // Sim 2: both children have prior .5, Q = FPU = 0 and U = .5: the tie goes
  // to child 1. Its eval is -0.5 for player 1, so +0.5 for the mover.
  mcts.run(eval, 1);
  auto kids = mcts.root_children();
  ASSERT_EQ(kids.size(), 2u);
  EXPECT_EQ(kids[0].visits, 1u);
  EXPECT_DOUBLE_EQ(kids[0].q, 0.5);
  // The root's stats are for its mover (player 1): 0 - 0.5.
  EXPECT_DOUBLE_EQ(mcts.root().utility_sum, -0.5);
  // Sim 3: the parent's Q for player 0 is 0.25, the FPU of child 2. Child 1:
  // 0.5 + .5 * sqrt(2) / 2 = 0.854; child 2: 0.25 + .5 * sqrt(2) = 0.957.
  mcts.run(eval, 1);
  kids = mcts.root_children();
  EXPECT_EQ(kids[1].visits, 1u);
  EXPECT_NEAR(kids[1].q, -0.2, 1e-6);  // evaluator values are floats
  EXPECT_NEAR(mcts.root().utility_sum, -0.3, 1e-6);
  // Sim 4: parent Q 0.1; child 1: 0.5 + .5 * sqrt(3) / 2 = 0.933; child 2:
  // -0.2 + 0.433 = 0.233. Child 1 is expanded, so the walk goes on to its
  // first leaf, node 3: a terminal draw, worth 0.
  mcts.run(eval, 1);
  kids = mcts.root_children();
  EXPECT_EQ(kids[0].visits, 2u);
  EXPECT_DOUBLE_EQ(kids[0].q, 0.25);
  EXPECT_EQ(eval.calls, 3);  // the root, node 1 and node 2; node 3 needed none
}

TEST(Mcts, FirstPlayUrgencyUsesTheParentValueMinusAReduction) {
  build_two_level_tree();
  MctsConfig c = plain_config();
  c.fpu_reduction = 10;  // unvisited children look terrible once one is visited
  Mcts<TreeGame> mcts(c);
  mcts.reset({0, 0});
  TreeEvaluator eval;
  mcts.run(eval, 6);
  const auto kids = mcts.root_children();
  EXPECT_EQ(kids[1].visits, 0u);  // never tried: its FPU is far below child 1's Q
  EXPECT_EQ(kids[0].visits, 5u);
}

TEST(Mcts, TreeReuseKeepsTheSubtree) {
  build_two_level_tree();
  Mcts<TreeGame> mcts(plain_config());
  mcts.reset({0, 0});
  TreeEvaluator eval;
  mcts.run(eval, 20);
  const uint32_t child_visits = mcts.root_children()[1].visits;
  ASSERT_GT(child_visits, 1u);
  mcts.advance(2);
  EXPECT_EQ(mcts.root_state().node, 2);
  EXPECT_EQ(mcts.root_state().player, 1);
  EXPECT_EQ(mcts.root().visits, child_visits);
  EXPECT_TRUE(mcts.root().expanded);
  uint32_t leaf_visits = 0;
  for (const auto& k : mcts.root_children())
    if (k.action == 6) leaf_visits = k.visits;
  mcts.advance(6);  // the opponent's reply: its node is kept too
  EXPECT_EQ(mcts.root_state().node, 6);
  EXPECT_EQ(mcts.root().visits, leaf_visits);
  mcts.reset({0, 0});
  EXPECT_EQ(mcts.root().visits, 0u);
  EXPECT_EQ(mcts.tree_size(), 1u);
}

TEST(Mcts, SolverProvesAWinAndPrefersItOverPriors) {
  // Root -> 1 (a leaf where player 1 has lost) or 2 (looks good to the eval).
  tree().assign(5, {});
  tree()[0].children = {2, 1};
  tree()[1].terminal_value = -1;  // player 1 to move, lost: player 0 wins
  tree()[2].children = {3, 4};
  tree()[2].eval_value = -0.99;
  Mcts<TreeGame> mcts(plain_config());
  mcts.reset({0, 0});
  TreeEvaluator eval;
  const int done = mcts.run(eval, 100);
  EXPECT_EQ(mcts.best_action(), 1);
  EXPECT_EQ(mcts.root().solved, Mcts<TreeGame>::kLoss);  // for the root's mover: player 0 wins
  EXPECT_LT(done, 100);  // a solved root stops the search
}

TEST(Mcts, SolverProvesALossWhenEveryMoveLoses) {
  // Both moves lead to leaves where player 1 (to move) has won.
  tree().assign(3, {});
  tree()[0].children = {1, 2};
  tree()[1].terminal_value = 1;
  tree()[2].terminal_value = 1;
  Mcts<TreeGame> mcts(plain_config());
  mcts.reset({0, 0});
  TreeEvaluator eval;
  mcts.run(eval, 10);
  EXPECT_EQ(mcts.root().solved, Mcts<TreeGame>::kWin);  // for the root's mover (player 1)
  for (const auto& k : mcts.root_children()) EXPECT_EQ(k.solved, Mcts<TreeGame>::kLoss);
}

// Four root children whose evaluations are known; with no Gumbel noise and
// equal priors the candidates keep their order, and sequential halving over
// a budget of 8 runs two phases: one visit each, then two more for the best
// two by sigma(Q).
TEST(Mcts, GumbelSequentialHalvingByHand) {
  tree().assign(9, {});
  tree()[0].children = {1, 2, 3, 4};
  const double child_eval[4] = {0.5, -0.5, 0.0, -0.9};  // for player 1 at each child
  for (int i = 0; i < 4; ++i) {
    tree()[size_t(1 + i)].children = {5 + i};
    tree()[size_t(1 + i)].eval_value = child_eval[i];
    tree()[size_t(5 + i)].children = {0};  // never terminal within the budget
    tree()[size_t(5 + i)].eval_value = 0;
  }
  MctsConfig c = plain_config();
  c.gumbel = true;
  c.gumbel_k = 4;
  c.gumbel_noise = false;
  Mcts<TreeGame> mcts(c);
  mcts.reset({0, 0});
  TreeEvaluator eval;
  mcts.begin_search(8);
  mcts.run(eval, 1 + 8);  // the root's own evaluation, then the budget
  const auto kids = mcts.root_children();
  EXPECT_EQ(kids[0].visits, 1u);
  EXPECT_EQ(kids[1].visits, 3u);  // Q 0.5 for player 0: second best
  EXPECT_EQ(kids[2].visits, 1u);
  EXPECT_EQ(kids[3].visits, 3u);  // Q 0.9: best
  EXPECT_NEAR(kids[3].q, 0.9 / 3, 1e-6);  // 0.9, then two zero-valued leaves
  EXPECT_NEAR(kids[1].q, 0.5 / 3, 1e-6);
  EXPECT_EQ(mcts.best_action(), 4);
  const auto policy = mcts.improved_policy();
  EXPECT_NEAR(std::accumulate(policy.begin(), policy.end(), 0.0), 1.0, 1e-5);
  EXPECT_EQ(std::max_element(policy.begin(), policy.end()) - policy.begin(), 3);
}

}  // namespace
}  // namespace mushroom
