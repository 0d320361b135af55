#include "tictactoe/tictactoe.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "search/mcts.h"

namespace mushroom::tictactoe {
namespace {

State play(std::initializer_list<int> cells) {
  State s;
  for (int c : cells) TicTacToe::apply(s, TicTacToe::Action(c));
  return s;
}

// Every position reachable from the empty board, each once.
std::vector<State> all_positions() {
  std::vector<State> out{State{}};
  std::set<uint64_t> seen{TicTacToe::hash(State{})};
  for (size_t i = 0; i < out.size(); ++i) {
    TicTacToe::Action actions[kCells];
    const int n = TicTacToe::legal_actions(out[i], actions);
    for (int k = 0; k < n; ++k) {
      State next = out[i];
      TicTacToe::apply(next, actions[k]);
      if (seen.insert(TicTacToe::hash(next)).second) out.push_back(next);
    }
  }
  return out;
}

// Uniform priors and no opinion on the value: whatever the search knows,
// it learns from the terminal positions it reaches.
TEST(TicTacToe, LinesEndTheGameAndAFullBoardDraws) {
  EXPECT_EQ(all_positions().size(), 5478u);  // the well-known count of legal positions
  const State won = play({0, 3, 1, 4, 2});  // the first player completes the top row
  EXPECT_TRUE(TicTacToe::is_terminal(won));
  EXPECT_EQ(TicTacToe::terminal_value(won), -1);  // for the side to move, who lost
  TicTacToe::Action actions[kCells];
  EXPECT_EQ(TicTacToe::legal_actions(won, actions), 0);
  const State full = play({0, 1, 2, 4, 3, 5, 7, 6, 8});
  EXPECT_TRUE(TicTacToe::is_terminal(full));
  EXPECT_FALSE(has_line(full.marks[0]) || has_line(full.marks[1]));
  EXPECT_EQ(TicTacToe::terminal_value(full), 0);
  EXPECT_EQ(TicTacToe::legal_actions(State{}, actions), 9);
}

TEST(TicTacToe, BestPlayDrawsAndTheSolverSeesWins) {
  EXPECT_EQ(solve(State{}), 0);
  EXPECT_EQ(solve(play({0, 3, 1, 4})), 1);   // the first player to move completes the top row
  EXPECT_EQ(solve(play({0, 4, 8, 2})), 1);   // the second's corner reply to the centre loses: a fork
  EXPECT_EQ(solve(play({4, 1})), 1);         // an edge reply to the centre loses too
}

TEST(TicTacToe, SymmetriesKeepValuesAndMapLegalMovesToLegalMoves) {
  const State lopsided = play({0, 1});
  std::set<std::pair<uint16_t, uint16_t>> images;
  for (int sym = 0; sym < TicTacToe::kNumSymmetries; ++sym) {
    const State t = TicTacToe::transform(sym, lopsided);
    images.insert({t.marks[0], t.marks[1]});
  }
  EXPECT_EQ(images.size(), 8u) << "the eight symmetries are distinct";
  for (const State& s : all_positions()) {
    for (int sym = 0; sym < TicTacToe::kNumSymmetries; ++sym) {
      const State t = TicTacToe::transform(sym, s);
      ASSERT_EQ(TicTacToe::is_terminal(t), TicTacToe::is_terminal(s));
      TicTacToe::Action actions[kCells], images_of[kCells];
      const int n = TicTacToe::legal_actions(s, actions);
      ASSERT_EQ(TicTacToe::legal_actions(t, images_of), n);
      for (int k = 0; k < n; ++k) {
        State after = t;
        TicTacToe::apply(after, TicTacToe::transform(sym, actions[k]));  // legal in the image
        State original = s;
        TicTacToe::apply(original, actions[k]);
        EXPECT_EQ(after, TicTacToe::transform(sym, original));
      }
    }
  }
  for (const State& s : all_positions()) {
    if (__builtin_popcount(s.marks[0] | s.marks[1]) < 5) continue;  // the plain solver is quick from here on
    for (int sym = 1; sym < TicTacToe::kNumSymmetries; ++sym) ASSERT_EQ(solve(TicTacToe::transform(sym, s)), solve(s));
  }
}

// The generic MCTS, with no knowledge but the rules, keeps the game-theoretic
// value in every position with at least three marks.
TEST(TicTacToe, GenericMctsPlaysEveryMidgamePositionPerfectly) {
  UniformEvaluator<TicTacToe> evaluator;
  int checked = 0;
  for (const State& s : all_positions()) {
    if (TicTacToe::is_terminal(s) || __builtin_popcount(s.marks[0] | s.marks[1]) < 3) continue;
    Mcts<TicTacToe> mcts;
    mcts.reset(s);
    mcts.run(evaluator, 1500);  // 3 simulations fail this test; 1,500 are plenty
    State after = s;
    TicTacToe::apply(after, mcts.best_action());
    ASSERT_EQ(-solve(after), solve(s)) << "marks " << s.marks[0] << "/" << s.marks[1];
    ++checked;
  }
  EXPECT_GT(checked, 4000);
}

// The learnable part: planes seen from the side to move, and a sample's
// fields that give the state back, on every legal position.
TEST(TicTacToe, EncodesFromTheMoversViewAndRoundTripsItsFields) {
  EXPECT_EQ(TicTacToe::feature_planes(1), 4);
  EXPECT_EQ(TicTacToe::feature_planes(2), 0);
  for (const State& s : all_positions()) {
    float planes[4 * kCells];
    TicTacToe::encode(s, planes, 1);
    for (int cell = 0; cell < kCells; ++cell) {
      ASSERT_EQ(planes[cell], float(s.marks[s.to_move] >> cell & 1));
      ASSERT_EQ(planes[kCells + cell], float(s.marks[s.to_move ^ 1] >> cell & 1));
      ASSERT_EQ(planes[2 * kCells + cell], float(!((s.marks[0] | s.marks[1]) >> cell & 1)));
      ASSERT_EQ(planes[3 * kCells + cell], 1.0f);
    }
    int32_t values[2];
    TicTacToe::write_state(s, values);
    ASSERT_EQ(TicTacToe::read_state(values, s.to_move, TicTacToe::ply(s)), s);
    ASSERT_EQ(TicTacToe::ply(s), __builtin_popcount(s.marks[0] | s.marks[1]));
  }
  for (int slot = 0; slot < kCells; ++slot) EXPECT_EQ(TicTacToe::action_index(TicTacToe::Action(TicTacToe::action_of_index(slot))), slot);
  EXPECT_EQ(TicTacToe::action_of_index(kCells), -1);
}

}  // namespace
}  // namespace mushroom::tictactoe
