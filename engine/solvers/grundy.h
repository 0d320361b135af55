// Sprague-Grundy toolkit: mex, memoized Grundy values, brute-force tables.
// A sum of independent games is lost for the player to move exactly when
// the XOR of the parts' Grundy values is 0.
#pragma once
#include <bit>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace mushroom {

// A set of small non-negative integers (< 256) and its minimum excludant.
class MexSet {
 public:
  void add(unsigned value) {
    if (value < 256) bits_[value >> 6] |= 1ull << (value & 63);
  }
  unsigned mex() const {
    for (unsigned w = 0; w < 4; ++w)
      if (~bits_[w]) return w * 64 + unsigned(std::countr_one(bits_[w]));
    return 256;
  }

 private:
  uint64_t bits_[4] = {0, 0, 0, 0};
};

// Grundy values of states reached through a successor function, memoized.
// for_each_move(state, visit) calls visit(next_state) for every move.
template <typename State, typename Hash = std::hash<State>>
class GrundyMemo {
 public:
  using Successors = std::function<void(const State&, const std::function<void(const State&)>&)>;
  explicit GrundyMemo(Successors successors) : successors_(std::move(successors)) {}

  unsigned grundy(const State& state) {
    if (auto it = memo_.find(state); it != memo_.end()) return it->second;
    MexSet seen;
    successors_(state, [&](const State& next) { seen.add(grundy(next)); });
    const unsigned value = seen.mex();
    memo_.emplace(state, value);
    return value;
  }
  size_t size() const { return memo_.size(); }

 private:
  Successors successors_;
  std::unordered_map<State, unsigned, Hash> memo_;
};

// A brute-force Grundy table over 0 <= x, y < n for a piece moving toward the
// origin: moves(x, y, visit) calls visit(nx, ny) for each target (targets
// off the board are skipped here). Filled in order of x + y, so every target
// (strictly closer to the origin) is known first.
std::vector<std::vector<unsigned>> grundy_table_2d(
    int n, const std::function<void(int, int, const std::function<void(int, int)>&)>& moves);

}  // namespace mushroom
