#include "blockgame/blockgame.h"

#include "util/parse_error.h"

namespace mushroom::blockgame {

namespace {
uint32_t bit(int r, int c) { return 1u << (r * kSize + c); }
}  // namespace

const std::vector<uint32_t>& placements() {
  static const std::vector<uint32_t> all = [] {
    std::vector<uint32_t> v;
    for (int r = 0; r + 1 < kSize; ++r)
      for (int c = 0; c + 1 < kSize; ++c) {
        const uint32_t square = bit(r, c) | bit(r, c + 1) | bit(r + 1, c) | bit(r + 1, c + 1);
        for (uint32_t missing : {bit(r, c), bit(r, c + 1), bit(r + 1, c), bit(r + 1, c + 1)})
          v.push_back(square & ~missing);
      }
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c + 1 < kSize; ++c) v.push_back(bit(r, c) | bit(r, c + 1));
    for (int r = 0; r + 1 < kSize; ++r)
      for (int c = 0; c < kSize; ++c) v.push_back(bit(r, c) | bit(r + 1, c));
    return v;
  }();
  return all;
}

uint32_t transform(uint32_t filled, int symmetry) {
  uint32_t out = 0;
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) {
      if (!(filled & bit(r, c))) continue;
      int nr = r, nc = c;
      if (symmetry & 4) std::swap(nr, nc);  // transpose
      if (symmetry & 1) nr = kSize - 1 - nr;
      if (symmetry & 2) nc = kSize - 1 - nc;
      out |= bit(nr, nc);
    }
  return out;
}

uint32_t canonical(uint32_t filled) {
  uint32_t best = filled;
  for (int s = 1; s < 8; ++s) best = std::min(best, transform(filled, s));
  return best;
}

uint32_t parse_board(const std::vector<std::string_view>& lines) {
  if (lines.size() != size_t(kSize)) throw ParseError("a board needs 5 lines");
  uint32_t filled = 0;
  for (int r = 0; r < kSize; ++r) {
    const std::string_view line = lines[size_t(r)];
    if (line.size() != size_t(kSize))
      throw ParseError("board row " + std::to_string(r + 1) + " has " + std::to_string(line.size()) +
                       " characters, not 5: '" + std::string(line) + "'");
    for (int c = 0; c < kSize; ++c) {
      if (line[size_t(c)] == '#') filled |= bit(r, c);
      else if (line[size_t(c)] != '.')
        throw ParseError("board row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) +
                         ": expected '#' or '.', got '" + std::string(1, line[size_t(c)]) + "'");
    }
  }
  return filled;
}

std::string format_board(uint32_t filled) {
  std::string out;
  for (int r = 0; r < kSize; ++r) {
    for (int c = 0; c < kSize; ++c) out += filled & bit(r, c) ? '#' : '.';
    out += '\n';
  }
  return out;
}

}  // namespace mushroom::blockgame
