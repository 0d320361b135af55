#include "seeds/digits_square_board.h"

#include <stdexcept>

#include "seeds/judge_input.h"
#include "solvers/grundy.h"

namespace mushroom::digits_square_board {

namespace {
bool cuttable_digit(int d) { return d == 1 || d == 4 || d == 6 || d == 8 || d == 9; }
}  // namespace

unsigned grundy(const std::vector<std::vector<int>>& grid) {
  const int n = int(grid.size());
  if (n < 1 || n > 30) throw std::invalid_argument("grid size must be 1..30");
  for (const auto& row : grid)
    if (int(row.size()) != n) throw std::invalid_argument("the grid must be square");
  // Prefix counts of cuttable digits.
  std::vector<int> count(size_t((n + 1) * (n + 1)), 0);
  auto at = [n](int r, int c) { return size_t(r * (n + 1) + c); };
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      count[at(r + 1, c + 1)] =
          count[at(r, c + 1)] + count[at(r + 1, c)] - count[at(r, c)] + (cuttable_digit(grid[size_t(r)][size_t(c)]) ? 1 : 0);
  auto cuttable = [&](int r1, int c1, int r2, int c2) {
    return count[at(r2 + 1, c2 + 1)] - count[at(r1, c2 + 1)] - count[at(r2 + 1, c1)] + count[at(r1, c1)] > 0;
  };
  // g[r1][c1][r2][c2], filled by increasing height then width so both parts
  // of every cut are known.
  std::vector<uint8_t> g(size_t(n) * n * n * n, 0);
  auto idx = [n](int r1, int c1, int r2, int c2) { return ((size_t(r1) * n + c1) * n + r2) * n + c2; };
  for (int h = 1; h <= n; ++h)
    for (int w = 1; w <= n; ++w)
      for (int r1 = 0; r1 + h <= n; ++r1)
        for (int c1 = 0; c1 + w <= n; ++c1) {
          const int r2 = r1 + h - 1, c2 = c1 + w - 1;
          if (h * w == 1 || !cuttable(r1, c1, r2, c2)) continue;  // no move: 0
          MexSet seen;
          for (int k = r1; k < r2; ++k) seen.add(g[idx(r1, c1, k, c2)] ^ g[idx(k + 1, c1, r2, c2)]);
          for (int k = c1; k < c2; ++k) seen.add(g[idx(r1, c1, r2, k)] ^ g[idx(r1, k + 1, r2, c2)]);
          g[idx(r1, c1, r2, c2)] = uint8_t(seen.mex());
        }
  return g[idx(0, 0, n - 1, n - 1)];
}

std::string solve_judge_input(std::string_view input) {
  JudgeInput in(input, "digits-square-board");
  const int cases = int(in.integer("the number of cases T", 1, 10));
  std::string out;
  for (int t = 0; t < cases; ++t) {
    const int n = int(in.integer("the board size N", 1, 30));
    std::vector<std::vector<int>> grid(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
      while (int(grid[size_t(r)].size()) < n) {
        const std::string_view word = in.token("a digit 1-9");
        for (char ch : word) {
          if (ch < '1' || ch > '9') in.fail("expected a digit 1-9, got '" + std::string(word) + "'");
          if (int(grid[size_t(r)].size()) == n) in.fail("row " + std::to_string(r + 1) + " has more than N digits");
          grid[size_t(r)].push_back(ch - '0');
        }
      }
    }
    out += first_player_wins(grid) ? "First\n" : "Second\n";
  }
  return out;
}

}  // namespace mushroom::digits_square_board
