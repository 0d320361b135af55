#include "mushroom/greedy.h"

namespace mushroom {

Move greedy_move(const MoveList& legal) {
  Move best = Move::pass();
  for (const Move& m : legal)
    if (m.area() > best.area() || (m.area() == best.area() && m < best)) best = m;
  return best;
}

Move greedy_move(const Position& pos) {
  MoveList list;
  generate_moves(pos, list);
  return greedy_move(list);
}

}  // namespace mushroom
