// Matches between two searches of any learnable game (search/game.h), for
// gating its candidates: paired games from random openings (0..4 random
// actions; each opening played twice, sides swapped), MCTS at `sims` on both
// sides. A side without a model searches on uniform priors and no value.
#pragma once
#include <memory>
#include <string>

#include "nn/game_net_evaluator.h"
#include "nn/model_file.h"
#include "run/match.h"
#include "search/mcts.h"
#include "util/progress.h"
#include "util/rng.h"

namespace mushroom::run {

// The evaluator of a model file of G ("" : uniform priors, no value).
template <typename G>
std::unique_ptr<Evaluator<G>> game_evaluator_for(const std::string& model_path, nn::GameKind game,
                                                 const std::string& device) {
  if (model_path.empty()) return std::make_unique<UniformEvaluator<G>>();
  return nn::make_game_net_evaluator<G>(nn::load_model(model_path), game, device);
}

// The search matches and grading use: PUCT, no noise, the value alone as
// utility (these games' margin is their value again).
inline MctsConfig game_match_search() {
  MctsConfig c;
  c.score_weight = 0;
  return c;
}

// Result for side A.
template <typename G>
MatchResult play_game_match(Evaluator<G>& a, Evaluator<G>& b, int boards, uint64_t seed, int sims) {
  Rng rng(seed);
  MatchResult result;
  progress().expect(2 * int64_t(boards));  // the gate's games (util/progress.h)
  typename G::Action legal[G::kMaxActions];
  for (int board = 0; board < boards; ++board) {
    typename G::State opening;
    for (;;) {
      opening = typename G::State{};
      const int plies = int(rng.uniform(5));
      for (int p = 0; p < plies; ++p) {
        const int n = G::legal_actions(opening, legal);
        if (n == 0) break;
        G::apply(opening, legal[rng.uniform(uint32_t(n))]);
      }
      if (!G::is_terminal(opening)) break;
    }
    for (int a_first = 1; a_first >= 0; --a_first) {
      Evaluator<G>* side[2] = {a_first ? &a : &b, a_first ? &b : &a};
      typename G::State s = opening;
      int mover = 0;  // 0: the side that moves first from the opening
      while (!G::is_terminal(s)) {
        Mcts<G> mcts(game_match_search());
        mcts.reset(s);
        mcts.run(*side[mover], sims);
        G::apply(s, mcts.best_action());
        mover ^= 1;
      }
      // The end's value for the side to move (mover), turned into A's.
      const double end = G::terminal_value(s);
      const double for_a = (mover == 0) == bool(a_first) ? end : -end;
      ++result.games;
      result.wins += for_a > 0;
      result.draws += for_a == 0;
      result.losses += for_a < 0;
      result.mean_margin += (for_a - result.mean_margin) / result.games;
      progress().add();
    }
  }
  return result;
}

template <typename G>
MatchResult play_game_match(const std::string& model_a, const std::string& model_b, nn::GameKind game, int boards,
                            uint64_t seed, int sims, const std::string& device) {
  const auto a = game_evaluator_for<G>(model_a, game, device), b = game_evaluator_for<G>(model_b, game, device);
  return play_game_match<G>(*a, *b, boards, seed, sims);
}

}  // namespace mushroom::run
