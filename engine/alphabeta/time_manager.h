// Per-move time budgets from the game's time bank (10 s of CPU per game on
// one core). More time goes to the middle game, little to forced moves, and
// a reserve is never touched, so the bot cannot forfeit on time.
#pragma once
#include "mushroom/position.h"

namespace mushroom {

struct TimeConfig {
  double reserve_ms = 300;    // never spent: process and I/O overheads
  double min_move_ms = 2;
  double max_share = 0.25;    // of the usable bank, for one move
  // Middle-game moves, with more than middle_min and fewer than middle_max
  // mushrooms left, get middle_boost times the time of the others.
  double middle_boost = 1.3;
  int middle_min = 85;
  int middle_max = 150;
  // Mushrooms expected to be left when the game ends (nobody can take them):
  // the plan divides the bank over the own moves before that.
  int end_mushrooms = 55;
  // Own moves at the end that cost next to nothing because the exact
  // endgame solver proves them (0 for agents without one).
  double solved_tail_moves = 0;
};

struct MoveBudget {
  double soft_ms;  // aim to stop here (or earlier when the choice is settled)
  double hard_ms;  // never go past this
};

// The part of the bank a plan may spend: all of it but the reserve.
double usable_bank_ms(double bank_ms, const TimeConfig& config = {});

// legal_rectangles: the moves available now (1 means the move is forced
// apart from the pass).
MoveBudget plan_move_time(double bank_ms, const Position& pos, int legal_rectangles, const TimeConfig& config = {});

}  // namespace mushroom
