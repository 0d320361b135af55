// Tests' shared game: a whole greedy-against-greedy game on a seeded random
// board, as a finished log (header only; tests include it).
#pragma once
#include <cstdint>

#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"
#include "protocol/game_log.h"

namespace mushroom {

inline GameLog greedy_game_log(uint64_t seed, int ms_per_move = 3) {
  GameLog log;
  log.start = random_board(seed);
  Position pos = log.start;
  while (!pos.game_over()) {
    const Move m = greedy_move(pos);
    log.moves.push_back({pos.to_move(), m, ms_per_move});
    pos.apply(m);
  }
  log.finished = true;
  log.score_first = pos.score(kFirst);
  log.score_second = pos.score(kSecond);
  return log;
}

}  // namespace mushroom
