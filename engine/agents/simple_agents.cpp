#include "agents/greedy_agent.h"
#include "agents/random_agent.h"

namespace mushroom {

Move RandomAgent::choose_move(const Position& pos, const Clock&) {
  MoveList list;
  if (generate_moves(pos, list) == 0) return Move::pass();
  return list[int(rng_.uniform(uint32_t(list.size)))];
}

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
