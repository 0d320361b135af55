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

std::vector<Position> endgame_positions(int count, uint64_t seed, int max_left) {
  Rng rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < count) {
    Position pos = random_board(rng.next_u64());
    while (!pos.game_over() && pos.mushrooms_left() > max_left) {
      MoveList list;
      generate_moves(pos, list);
      if (list.size == 0) {
        pos.apply(Move::pass());
        continue;
      }
      // Two moves in three random, the rest greedy: varied, yet games that run long.
      pos.apply(rng.uniform(3) != 0 ? list[int(rng.uniform(uint32_t(list.size)))] : greedy_move(list));
    }
    if (pos.game_over()) continue;
    if (rng.uniform(4) == 0) pos.apply(Move::pass());  // the opponent has just passed
    if (!pos.game_over()) out.push_back(pos);
  }
  return out;
}

}  // namespace mushroom
