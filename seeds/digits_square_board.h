// Digits Square Board (seed 001, HackerRank): an N x N grid of digits 1..9.
// A move cuts one current board of more than one cell along a full grid
// line into two boards; a board can be cut only if it holds a digit that is
// not prime (1, 4, 6, 8, 9: 1 counts, as the judge's sample shows). Whoever
// cannot move loses. A board's Grundy value is the mex over its cuts of the
// XOR of the two parts.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace mushroom::digits_square_board {

// Grundy value of the whole grid (rows of equal length N, 1 <= N <= 30).
unsigned grundy(const std::vector<std::vector<int>>& grid);
inline bool first_player_wins(const std::vector<std::vector<int>>& grid) { return grundy(grid) != 0; }

// The judge's format: T, then per case N and N rows of N digits (separated
// by spaces or not); prints First or Second per case.
std::string solve_judge_input(std::string_view input);

}  // namespace mushroom::digits_square_board
