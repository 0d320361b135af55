#include "tictactoe/tictactoe.h"

#include <algorithm>

namespace mushroom::tictactoe {

bool has_line(uint16_t cells) {
  static constexpr uint16_t kLines[] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
  for (uint16_t line : kLines)
    if ((cells & line) == line) return true;
  return false;
}

int transform_cell(int symmetry, int cell) {
  int r = cell / 3, c = cell % 3;
  if (symmetry >= 4) c = 2 - c;  // mirror first
  for (int k = 0; k < symmetry % 4; ++k) {
    const int nr = c, nc = 2 - r;  // a quarter turn clockwise
    r = nr;
    c = nc;
  }
  return r * 3 + c;
}

uint16_t transform_cells(int symmetry, uint16_t cells) {
  uint16_t out = 0;
  for (int cell = 0; cell < kCells; ++cell)
    if (cells >> cell & 1) out = uint16_t(out | 1u << transform_cell(symmetry, cell));
  return out;
}

int solve(const State& s) {
  if (TicTacToe::is_terminal(s)) return int(TicTacToe::terminal_value(s));
  TicTacToe::Action actions[kCells];
  const int n = TicTacToe::legal_actions(s, actions);
  int best = -1;
  for (int i = 0; i < n && best < 1; ++i) {
    State next = s;
    TicTacToe::apply(next, actions[i]);
    best = std::max(best, -solve(next));
  }
  return best;
}

void TicTacToe::encode(const State& s, float* planes, int) {
  const uint16_t mine = s.marks[s.to_move], theirs = s.marks[s.to_move ^ 1];
  for (int cell = 0; cell < kCells; ++cell) {
    planes[cell] = float(mine >> cell & 1);
    planes[kCells + cell] = float(theirs >> cell & 1);
    planes[2 * kCells + cell] = float(!((mine | theirs) >> cell & 1));
    planes[3 * kCells + cell] = 1.0f;
  }
}

int TicTacToe::ply(const State& s) { return __builtin_popcount(unsigned(s.marks[0] | s.marks[1])); }

}  // namespace mushroom::tictactoe
