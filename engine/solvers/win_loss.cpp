#include "solvers/win_loss.h"

#include <stdexcept>

namespace mushroom {

WinLossTable::WinLossTable(int bits, std::vector<uint32_t> moves) : moves_(std::move(moves)) {
  if (bits < 1 || bits > 30) throw std::invalid_argument("WinLossTable needs 1..30 bits");
  table_.assign((size_t(1) << bits) / 4 + 1, 0);
}

bool WinLossTable::wins(uint32_t filled) {
  const uint8_t known = get(filled);
  if (known) return known == 2;
  bool won = false;
  for (uint32_t m : moves_) {
    if ((filled & m) == 0 && !wins(filled | m)) {
      won = true;
      break;
    }
  }
  set(filled, won ? 2 : 1);
  return won;
}

std::vector<uint32_t> WinLossTable::winning_moves(uint32_t filled) {
  std::vector<uint32_t> out;
  for (uint32_t m : moves_)
    if ((filled & m) == 0 && !wins(filled | m)) out.push_back(m);
  return out;
}

WinLossMemo::WinLossMemo(std::vector<uint32_t> moves, std::function<uint32_t(uint32_t)> canonical)
    : moves_(std::move(moves)), canonical_(std::move(canonical)) {}

bool WinLossMemo::wins(uint32_t filled) {
  const uint32_t key = canonical_(filled);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  bool won = false;
  for (uint32_t m : moves_) {
    if ((filled & m) == 0 && !wins(filled | m)) {
      won = true;
      break;
    }
  }
  memo_.emplace(key, won);
  return won;
}

}  // namespace mushroom
