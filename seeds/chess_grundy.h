// The chess-piece Grundy game (seed 004, BOJ 16880 / 16879). Pieces stand on
// cells (x, y) >= 0; a move takes one piece strictly closer to (0, 0) without
// increasing a coordinate; several pieces may share a cell; whoever cannot
// move loses.
//   R rook:    (x-k, y) or (x, y-k)
//   B bishop:  (x-k, y-k)
//   K king:    (x-1, y), (x, y-1), (x-1, y-1)
//   N knight:  (x-1, y-2), (x-2, y-1)
//   P palace:  rook moves plus (x-1, y-1)
// Each piece's Grundy function has a closed form, found from brute-force
// tables and checked against them in the tests.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace mushroom::chess_grundy {

// Closed-form Grundy value of one piece ('R', 'B', 'K', 'N', 'P').
uint64_t grundy(char piece, uint64_t x, uint64_t y);

// Every target of a piece at (x, y), including ones off the board (the
// caller skips those): the rules above, for brute-force tables.
void for_each_move(char piece, int x, int y, const std::function<void(int, int)>& visit);

// BOJ 16880: N, then N lines "x y c". BOJ 16879 (palace_only): N, then N
// lines "x y" of palaces. Prints koosaga when the first player wins, else
// cubelover.
std::string solve_judge_input(std::string_view input, bool palace_only);

}  // namespace mushroom::chess_grundy
