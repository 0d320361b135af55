// PseudoTonga (seed 002): on an N x N board (N even, 6..16) Black and White
// alternately place a stone on any empty square, Black first, until the
// board is full. An isle is an orthogonally connected group of one colour;
// each player scores the sum of the squares of their isles' sizes.
//
// Boards are 256-bit sets with a row stride of 16 (cell = r * 16 + c), so
// N <= 16 fits and neighbours are shifts by 1 and 16.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace mushroom::tonga {

constexpr int kMaxN = 16;
constexpr int kStride = 16;
constexpr int kMaxCells = kStride * kMaxN;

struct Bits {
  std::array<uint64_t, 4> w{};
  bool test(int i) const { return w[i >> 6] >> (i & 63) & 1; }
  void set(int i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
  void reset(int i) { w[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  int count() const { return std::popcount(w[0]) + std::popcount(w[1]) + std::popcount(w[2]) + std::popcount(w[3]); }
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
  Bits operator|(const Bits& o) const { return {{w[0] | o.w[0], w[1] | o.w[1], w[2] | o.w[2], w[3] | o.w[3]}}; }
  Bits operator&(const Bits& o) const { return {{w[0] & o.w[0], w[1] & o.w[1], w[2] & o.w[2], w[3] & o.w[3]}}; }
  Bits operator~() const { return {{~w[0], ~w[1], ~w[2], ~w[3]}}; }
  bool operator==(const Bits&) const = default;
  // Calls f(cell) for every set bit, in increasing order.
  template <typename F>
  void for_each(F&& f) const {
    for (int k = 0; k < 4; ++k)
      for (uint64_t x = w[k]; x; x &= x - 1) f(k * 64 + std::countr_zero(x));
  }
};

enum Color : uint8_t { kBlack = 0, kWhite = 1 };
constexpr Color other(Color c) { return Color(1 - c); }

// The squares of an N x N board and their neighbour sets.
class Geometry {
 public:
  explicit Geometry(int n);  // throws std::invalid_argument unless n is even and in 6..16 (2..16 for tests)
  int n() const { return n_; }
  const Bits& board() const { return board_; }
  const Bits& neighbours(int cell) const { return neighbours_[cell]; }
  static int cell(int r, int c) { return r * kStride + c; }

 private:
  int n_;
  Bits board_;
  std::array<Bits, kMaxCells> neighbours_;
};

struct Board {
  std::array<Bits, 2> stones;  // by colour
  Color to_move = kBlack;
  int placed = 0;
  Bits empty(const Geometry& g) const { return g.board() & ~(stones[0] | stones[1]); }
  bool full(const Geometry& g) const { return placed == g.n() * g.n(); }
  void place(int cell) {
    stones[to_move].set(cell);
    to_move = other(to_move);
    ++placed;
  }
};

// Sizes of every isle of one colour.
std::vector<int> isle_sizes(const Geometry& g, const Bits& stones);
// Sum of the squares of the isle sizes.
int64_t tonga_score(const Geometry& g, const Bits& stones);

// Parses rows of '.', 'B', 'W' (spaces ignored); for tests and tools.
Board parse_board(const Geometry& g, const std::vector<std::string>& rows);

}  // namespace mushroom::tonga
