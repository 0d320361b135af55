#include "mushroom/perft.h"

#include "mushroom/movegen.h"

namespace mushroom {

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.game_over()) return 0;
  MoveList list;
  generate_moves(pos, list);
  uint64_t total = 0;
  Undo undo;
  auto visit = [&](const Move& m) {
    pos.apply(m, &undo);
    if (pos.game_over()) total += depth == 1 ? 1 : 0;
    else total += perft(pos, depth - 1);
    pos.undo(undo);
  };
  for (const Move& m : list) visit(m);
  visit(Move::pass());
  return total;
}

}  // namespace mushroom
