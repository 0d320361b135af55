// The search settings the playing agents use: the alphabeta agent, the
// alphabeta-policy agent and the exported bot. AlphaBetaConfig's own
// defaults stay the plain search, which the evaluation's labels, the exact
// solvers and the tests build on; a playing agent adds what issue 57's
// screen accepted and the real clock confirmed (docs/history/issue-57-balanced-boards-and-screens.md, "Part 4
// through the screen" and what follows it):
//   lmr_divisor 2: late quiet moves reduced by a logarithmic number of plies;
//   quiescence_depth 2: the biggest captures searched two plies past the
//   depth limit;
//   quiescence_floor: a quiescence node whose evaluation floor reaches beta
//   stands pat without generating its moves (1.4 times the speed; shipped
//   with the agent's levers of issue 99 by the margin rule,
//   bench/matches/levers-9902);
//   probcut_sigmas 1.25: Multi-ProbCut cuts at 1.25 spreads, not 1.5
//   (shipped with the agent's near-misses of issue 99 by the margin rule,
//   bench/matches/combo-9915).
#pragma once

#include "alphabeta/alphabeta.h"

namespace mushroom {

inline AlphaBetaConfig playing_search_config() {
  AlphaBetaConfig c;
  c.lmr_divisor = 2;
  c.quiescence_depth = 2;
  c.quiescence_floor = true;
  c.probcut_sigmas = 1.25;
  return c;
}

}  // namespace mushroom
