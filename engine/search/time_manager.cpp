#include "search/time_manager.h"

#include <algorithm>

namespace mushroom {

MoveBudget plan_move_time(double bank_ms, const Position& pos, int legal_rectangles, const TimeConfig& config) {
  const double usable = std::max(0.0, bank_ms - config.reserve_ms);
  if (usable <= config.min_move_ms || legal_rectangles <= 1) {
    const double ms = std::min(usable, config.min_move_ms);
    return {ms, ms};
  }
  // A move clears about 3 mushrooms and half the moves are ours.
  const int left = pos.mushrooms_left();
  const double own_moves_left = std::max(3.0, left / 6.0);
  // Middle game: more than a quarter but less than 85% of the board left.
  const double share = left < 0.85 * kCells && left > 0.25 * kCells ? config.middle_boost : 1.0;
  const double soft = std::max(config.min_move_ms, usable / own_moves_left * share);
  const double hard = std::max(soft, std::min(3 * soft, usable * config.max_share));
  return {std::min(soft, usable), std::min(hard, usable)};
}

}  // namespace mushroom
