#include "mushroom/playout_positions.h"

#include "mushroom/greedy.h"
#include "mushroom/board_gen.h"
#include "util/rng.h"

namespace mushroom {

std::vector<Position> playout_positions(int count, uint64_t seed) {
  std::vector<Position> out;
  Rng rng(seed);
  while (int(out.size()) < count) {
    const BoardMode mode = rng.uniform(2) ? BoardMode::kUniform : BoardMode::kSumMultipleOf10;
    Position pos = random_board(rng.next_u64(), mode);
    const double greedy_share = rng.uniform_double();
    while (!pos.game_over() && int(out.size()) < count) {
      out.push_back(pos);
      MoveList list;
      generate_moves(pos, list);
      Move m = Move::pass();
      if (list.size > 0)
        m = rng.uniform_double() < greedy_share ? greedy_move(list) : list[int(rng.uniform(uint32_t(list.size)))];
      pos.apply(m);
    }
  }
  return out;
}

}  // namespace mushroom
