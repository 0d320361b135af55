// A mushroom-game move: a rectangle (r1,c1)-(r2,c2), 0-based and inclusive,
// with r1<=r2 and c1<=c2, or the pass.
#pragma once
#include <cstdint>
#include <string>

namespace mushroom {

constexpr int kRows = 10;
constexpr int kCols = 17;
constexpr int kCells = kRows * kCols;
// Policy index space: one slot per (top-left cell, bottom-right cell) pair,
// i.e. a 170x170 table, plus the pass in the last slot.
constexpr int kPassIndex = kCells * kCells;
// inline: the exported bot no longer reads it (the cutoff history did), and
// clang warns of an unused internal constant.
inline constexpr int kPolicySize = kPassIndex + 1;

struct Move {
  int8_t r1 = -1, c1 = -1, r2 = -1, c2 = -1;

  static constexpr Move pass() { return Move{}; }
  static constexpr Move rect(int r1, int c1, int r2, int c2) {
    return Move{int8_t(r1), int8_t(c1), int8_t(r2), int8_t(c2)};
  }
  constexpr bool is_pass() const { return r1 < 0; }
  // A rectangle inside the 10x17 board with r1 <= r2 and c1 <= c2.
  constexpr bool on_board() const {
    return r1 >= 0 && c1 >= 0 && r2 < kRows && c2 < kCols && r1 <= r2 && c1 <= c2;
  }
  constexpr int area() const { return is_pass() ? 0 : (r2 - r1 + 1) * (c2 - c1 + 1); }
  // Dense index into the policy table (see kPolicySize).
  constexpr int index() const {
    return is_pass() ? kPassIndex : (r1 * kCols + c1) * kCells + (r2 * kCols + c2);
  }
  static constexpr Move from_index(int index) {
    if (index == kPassIndex) return pass();
    const int a = index / kCells, b = index % kCells;
    return rect(a / kCols, a % kCols, b / kCols, b % kCols);
  }
  // Packs into one integer ordered like (r1,c1,r2,c2) lexicographically,
  // with the pass first.
  constexpr uint32_t order_key() const {
    return is_pass() ? 0u
                     : 1u + ((uint32_t(r1) << 24) | (uint32_t(c1) << 16) | (uint32_t(r2) << 8) |
                             uint32_t(c2));
  }
  constexpr bool operator==(const Move& o) const { return r1 == o.r1 && c1 == o.c1 && r2 == o.r2 && c2 == o.c2; }
  constexpr bool operator!=(const Move& o) const { return !(*this == o); }
  constexpr bool operator<(const Move& o) const { return order_key() < o.order_key(); }
};

// "r1 c1 r2 c2", or "-1 -1 -1 -1" for the pass: the protocol's spelling.
std::string to_string(const Move& m);

}  // namespace mushroom
