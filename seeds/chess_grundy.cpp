#include "seeds/chess_grundy.h"

#include <algorithm>
#include <stdexcept>

#include "seeds/judge_input.h"

namespace mushroom::chess_grundy {

uint64_t grundy(char piece, uint64_t x, uint64_t y) {
  const uint64_t lo = std::min(x, y), hi = std::max(x, y);
  switch (piece) {
    case 'R': return x ^ y;  // two Nim heaps
    case 'B': return lo;     // one heap of min(x, y)
    case 'K': return 2 * (lo % 2) + (x + y) % 2;
    case 'N':
      // By min % 3: 0 -> 0; 1 -> 0 on the diagonal, else 1; 2 -> 1 on or
      // next to the diagonal, else 2.
      switch (lo % 3) {
        case 0: return 0;
        case 1: return hi == lo ? 0 : 1;
        default: return hi <= lo + 1 ? 1 : 2;
      }
    case 'P': return 3 * ((x / 3) ^ (y / 3)) + (x + y) % 3;
  }
  throw std::invalid_argument(std::string("unknown piece '") + piece + "'");
}

void for_each_move(char piece, int x, int y, const std::function<void(int, int)>& visit) {
  switch (piece) {
    case 'R':
    case 'P':
      for (int k = 1; k <= x; ++k) visit(x - k, y);
      for (int k = 1; k <= y; ++k) visit(x, y - k);
      if (piece == 'P') visit(x - 1, y - 1);
      return;
    case 'B':
      for (int k = 1; k <= std::min(x, y); ++k) visit(x - k, y - k);
      return;
    case 'K':
      visit(x - 1, y), visit(x, y - 1), visit(x - 1, y - 1);
      return;
    case 'N':
      visit(x - 1, y - 2), visit(x - 2, y - 1);
      return;
  }
  throw std::invalid_argument(std::string("unknown piece '") + piece + "'");
}

std::string solve_judge_input(std::string_view input, bool palace_only) {
  JudgeInput in(input, palace_only ? "chess-grundy --palace-only" : "chess-grundy");
  const int64_t n = in.integer("the number of pieces N", 1, 300000);
  const int64_t max_coord = palace_only ? 2999 : 999999999;
  uint64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = uint64_t(in.integer("a coordinate x", 0, max_coord));
    const uint64_t y = uint64_t(in.integer("a coordinate y", 0, max_coord));
    char piece = 'P';
    if (!palace_only) {
      const std::string_view word = in.token("a piece R, B, K, N or P");
      if (word.size() != 1 || std::string_view("RBKNP").find(word[0]) == std::string_view::npos)
        in.fail("expected a piece R, B, K, N or P, got '" + std::string(word) + "'");
      piece = word[0];
    }
    total ^= grundy(piece, x, y);
  }
  if (!in.at_end()) in.fail("unexpected text after " + std::to_string(n) + " pieces");
  return total ? "koosaga\n" : "cubelover\n";
}

}  // namespace mushroom::chess_grundy
