#include "agents/greedy_agent.h"
#include "agents/random_agent.h"

namespace mushroom {

Move RandomAgent::choose_move(const Position& pos, const Clock&) {
  MoveList list;
  if (generate_moves(pos, list) == 0) return Move::pass();
  return list[int(rng_.uniform(uint32_t(list.size)))];
}

}  // namespace mushroom
