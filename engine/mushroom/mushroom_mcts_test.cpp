// The generic MCTS on the mushroom game (the generic tests, on a hand-made
// tree game, are in search/mcts_test.cpp).
#include "search/mcts.h"

#include <gtest/gtest.h>

#include "mushroom/board_gen.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/mushroom_game.h"

namespace mushroom {
namespace {

TEST(Mcts, GumbelPlaysSensiblyWithFewSimulations) {
  // A nearly empty board: a 9+1 pair far apart spans a big rectangle, or a
  // lone 5+5 pair gives two cells. The big one is clearly better.
  Position p;
  p.set_digit(0, 0, 9);
  p.set_digit(6, 10, 1);
  p.set_digit(9, 15, 5);
  p.set_digit(9, 16, 5);
  for (int sims : {2, 4, 8, 16}) {
    MctsConfig c;
    c.gumbel = true;
    c.seed = uint64_t(sims);
    Mcts<MushroomGame> mcts(c);
    mcts.reset(p);
    MaterialEvaluator eval;
    mcts.begin_search(sims);
    mcts.run(eval, sims + 1);
    EXPECT_EQ(mcts.best_action(), Move::rect(0, 0, 6, 10)) << sims << " simulations";
  }
}

TEST(Mcts, BatchedStepInterfaceMatchesRun) {
  // Driving the search leaf by leaf (as a batching driver does) gives the
  // same tree as run() with the same evaluator.
  const Position start = random_board(21);
  RandomEvaluator eval(5);
  Mcts<MushroomGame> a, b;
  a.reset(start);
  b.reset(start);
  a.run(eval, 200);
  std::vector<EvalResult> results(1);
  for (int i = 0; i < 200; ++i) {
    if (!b.select_leaf()) continue;
    const EvalRequest<MushroomGame> req = b.leaf_request();
    eval.evaluate(Span<const EvalRequest<MushroomGame>>(&req, 1), results);
    b.finish_leaf(results[0]);
  }
  EXPECT_EQ(a.best_action(), b.best_action());
  EXPECT_EQ(a.root().visits, b.root().visits);
  EXPECT_EQ(a.tree_size(), b.tree_size());
}

}  // namespace
}  // namespace mushroom
