// BLOCKGAME (seed 003, Algospot): a 5x5 board, '#' blocked and '.' empty.
// Players alternately place an L-tromino (a 2x2 square minus one cell, 4
// orientations) or a domino (2 orientations) on empty cells; whoever places
// the last piece wins. Positions are 25-bit masks of filled cells, bit
// r * 5 + c.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/win_loss.h"

namespace mushroom::blockgame {

constexpr int kSize = 5;
constexpr int kBits = kSize * kSize;
constexpr uint32_t kFull = (1u << kBits) - 1;

// All 104 placements as masks: 64 L-trominoes, then 20 horizontal and 20
// vertical dominoes.
const std::vector<uint32_t>& placements();

// The 8 symmetries of the square (0 = identity).
uint32_t transform(uint32_t filled, int symmetry);
// The least mask among the 8 images.
uint32_t canonical(uint32_t filled);

// Parses 5 lines of '#' and '.'.
uint32_t parse_board(const std::vector<std::string_view>& lines);
std::string format_board(uint32_t filled);

// Exact solver on the full 2^25 table (8 MiB), shared by all queries.
class Solver {
 public:
  Solver() : table_(kBits, placements()) {}
  bool wins(uint32_t filled) { return table_.wins(filled); }
  std::vector<uint32_t> winning_moves(uint32_t filled) { return table_.winning_moves(filled); }

 private:
  WinLossTable table_;
};

}  // namespace mushroom::blockgame
