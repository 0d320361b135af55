#include "seeds/pseudo_tonga.h"

#include <stdexcept>

namespace mushroom::tonga {

Geometry::Geometry(int n) : n_(n) {
  if (n < 2 || n > kMaxN || n % 2 != 0) throw std::invalid_argument("PseudoTonga: N must be even and at most 16, got " + std::to_string(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      board_.set(cell(r, c));
      Bits& nb = neighbours_[cell(r, c)];
      if (r > 0) nb.set(cell(r - 1, c));
      if (r + 1 < n) nb.set(cell(r + 1, c));
      if (c > 0) nb.set(cell(r, c - 1));
      if (c + 1 < n) nb.set(cell(r, c + 1));
    }
}

std::vector<int> isle_sizes(const Geometry& g, const Bits& stones) {
  std::vector<int> sizes;
  Bits seen;
  stones.for_each([&](int start) {
    if (seen.test(start)) return;
    int size = 0;
    std::vector<int> stack{start};
    seen.set(start);
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      ++size;
      (g.neighbours(x) & stones & ~seen).for_each([&](int y) {
        seen.set(y);
        stack.push_back(y);
      });
    }
    sizes.push_back(size);
  });
  return sizes;
}

int64_t tonga_score(const Geometry& g, const Bits& stones) {
  int64_t total = 0;
  for (int s : isle_sizes(g, stones)) total += int64_t(s) * s;
  return total;
}

Board parse_board(const Geometry& g, const std::vector<std::string>& rows) {
  if (int(rows.size()) != g.n()) throw std::invalid_argument("PseudoTonga board: expected " + std::to_string(g.n()) + " rows");
  Board b;
  for (int r = 0; r < g.n(); ++r) {
    int c = 0;
    for (char ch : rows[r]) {
      if (ch == ' ') continue;
      if (c >= g.n()) throw std::invalid_argument("PseudoTonga board: row " + std::to_string(r) + " is too long");
      if (ch == 'B' || ch == 'W') {
        b.stones[ch == 'B' ? kBlack : kWhite].set(Geometry::cell(r, c));
        ++b.placed;
      } else if (ch != '.') {
        throw std::invalid_argument(std::string("PseudoTonga board: unexpected '") + ch + "'");
      }
      ++c;
    }
    if (c != g.n()) throw std::invalid_argument("PseudoTonga board: row " + std::to_string(r) + " is too short");
  }
  b.to_move = b.stones[kBlack].count() > b.stones[kWhite].count() ? kWhite : kBlack;
  return b;
}

}  // namespace mushroom::tonga
