// The mushroom game behind the search interface (search/game.h). The pass
// is always one of the legal actions while the game runs, listed last.
#pragma once
#include "mushroom/movegen.h"
#include "mushroom/symmetry.h"
#include "search/game.h"

namespace mushroom {

struct MushroomGame {
  using State = Position;
  using Action = Move;
  static constexpr int kMaxActions = kMaxMoves + 1;
  static constexpr int kNumSymmetries = 4;

  static int legal_actions(const State& s, Action* out) {
    if (s.game_over()) return 0;
    MoveList list;
    const int n = generate_moves(s, list);
    for (int i = 0; i < n; ++i) out[i] = list[i];
    out[n] = Move::pass();
    return n + 1;
  }
  static void apply(State& s, const Action& a) { s.apply(a); }
  static bool is_terminal(const State& s) { return s.game_over(); }
  static int to_move(const State& s) { return s.to_move(); }
  static double terminal_margin(const State& s) { return s.margin_for_side_to_move(); }
  static double terminal_value(const State& s) {
    const int m = s.margin_for_side_to_move();
    return (m > 0) - (m < 0);
  }
  static uint64_t hash(const State& s) { return s.hash(); }
  static int action_index(const Action& a) { return a.index(); }
  static State transform(int symmetry, const State& s) { return mushroom::transform(Symmetry(symmetry), s); }
  static Action transform(int symmetry, const Action& a) { return mushroom::transform(Symmetry(symmetry), a); }
};
MUSHROOM_CHECK_SEARCH_GAME(MushroomGame);

}  // namespace mushroom
