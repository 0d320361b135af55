// Memoized win/loss search for games where the player who cannot move loses
// (normal play), over positions held as bitmasks of filled cells. A move is
// a mask of cells it fills; it is legal when none of them is filled yet.
#pragma once
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace mushroom {

// A plain table over every n-bit position (n <= 30): 2 bits of state per
// position, 0 unknown, 1 lost, 2 won for the player to move.
class WinLossTable {
 public:
  WinLossTable(int bits, std::vector<uint32_t> moves);
  bool wins(uint32_t filled);
  // The moves that leave the opponent in a lost position.
  std::vector<uint32_t> winning_moves(uint32_t filled);
  const std::vector<uint32_t>& moves() const { return moves_; }

 private:
  uint8_t get(uint32_t pos) const { return uint8_t((table_[pos >> 2] >> ((pos & 3) * 2)) & 3); }
  void set(uint32_t pos, uint8_t v) { table_[pos >> 2] |= uint8_t(v << ((pos & 3) * 2)); }
  std::vector<uint32_t> moves_;
  std::vector<uint8_t> table_;
};

// The same search memoized in a hash map, with positions first mapped to a
// canonical representative (e.g. the least of their symmetric images), so
// symmetric positions share one entry.
class WinLossMemo {
 public:
  WinLossMemo(std::vector<uint32_t> moves, std::function<uint32_t(uint32_t)> canonical);
  bool wins(uint32_t filled);
  size_t size() const { return memo_.size(); }

 private:
  std::vector<uint32_t> moves_;
  std::function<uint32_t(uint32_t)> canonical_;
  std::unordered_map<uint32_t, bool> memo_;
};

}  // namespace mushroom
