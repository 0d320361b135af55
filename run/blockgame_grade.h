// Grading BLOCKGAME nets against the exact solver (blockgame/blockgame.h), and
// the paired matches that gate blockgame candidates.
//
// Grading positions are reachable in play: a playout of uniformly random
// placements from the empty board, cut at a uniformly chosen ply between 1
// and its last non-terminal position (so never the empty board, never a
// finished game). They come from their own seed, apart from self-play's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "blockgame/blockgame.h"
#include "nn/model.h"
#include "run/match.h"
#include "search/mcts.h"

namespace mushroom::run {

// The seed `mushroom grade` and the run loop's evaluation use by default.
constexpr uint64_t kBlockgameGradingSeed = 0x67726164652d3031ull;

struct GradePosition {
  uint32_t filled = 0;
  bool won = false;      // for the player to move, with perfect play
  int legal = 0;         // legal placements
  int winning = 0;       // of them, those that win
  int ply = 0;           // placements made to reach it
};

std::vector<GradePosition> blockgame_grading_positions(int count, uint64_t seed, blockgame::Solver& solver);

struct GradeReport {
  int positions = 0, won = 0;
  int sims = 0;
  double random_accuracy = 0;  // won positions: the chance a uniformly random legal move wins, averaged
  double policy_accuracy = 0;  // won positions where the raw policy's top move wins
  double mcts_accuracy = 0;    // won positions where MCTS's move (at `sims`) wins
  double value_accuracy = 0;   // all positions: the value head's sign matches won/lost
  // The same counts by ply (index = ply), to show where the errors are.
  struct PlyCounts {
    int positions = 0, won = 0, policy_right = 0, mcts_right = 0, value_right = 0;
  };
  std::vector<PlyCounts> by_ply;
};

// The random policy's line only (no net needed).
GradeReport grade_random_policy(const std::vector<GradePosition>& positions);
// The search grading uses unless told otherwise: PUCT, no noise, the value
// alone as utility.
MctsConfig blockgame_grading_search();
// Everything, for a blockgame model; MCTS runs with `search` (give it no
// noise: grading must be repeatable). sims 0 skips MCTS.
GradeReport grade_blockgame(const nn::Model& model, const std::vector<GradePosition>& positions, int sims,
                            blockgame::Solver& solver, const std::string& device = "cpu",
                            const MctsConfig& search = blockgame_grading_search());
std::string format_grade_report(const GradeReport& report);

// Paired games from random openings (0..4 random placements; each opening
// played twice, sides swapped), MCTS at `sims` on both sides. An empty
// model path means MCTS with uniform priors and no value (the no-net
// baseline). Result for side A.
MatchResult play_blockgame_match(const std::string& model_a, const std::string& model_b, int boards, uint64_t seed,
                                 int sims, const std::string& device = "cpu");

}  // namespace mushroom::run
