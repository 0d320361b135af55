#include "blockgame/blockgame.h"

#include <gtest/gtest.h>

#include <set>
#include <unordered_map>

#include "util/rng.h"

namespace mushroom::blockgame {
namespace {

// Independent slow solver: plain minimax with a hash map, no table.
bool slow_wins(uint32_t filled, std::unordered_map<uint32_t, bool>& memo) {
  if (auto it = memo.find(filled); it != memo.end()) return it->second;
  bool won = false;
  for (int r = 0; r < kSize && !won; ++r)
    for (int c = 0; c < kSize && !won; ++c) {
      auto free = [&](int rr, int cc) { return rr < kSize && cc < kSize && !(filled >> (rr * 5 + cc) & 1); };
      auto bit = [](int rr, int cc) { return 1u << (rr * 5 + cc); };
      std::vector<uint32_t> pieces;
      if (free(r, c) && free(r, c + 1)) pieces.push_back(bit(r, c) | bit(r, c + 1));
      if (free(r, c) && free(r + 1, c)) pieces.push_back(bit(r, c) | bit(r + 1, c));
      const int corners[4][2] = {{r, c}, {r, c + 1}, {r + 1, c}, {r + 1, c + 1}};
      for (int skip = 0; skip < 4; ++skip) {
        uint32_t m = 0;
        bool ok = true;
        for (int k = 0; k < 4; ++k) {
          if (k == skip) continue;
          ok &= free(corners[k][0], corners[k][1]);
          if (ok) m |= bit(corners[k][0], corners[k][1]);
        }
        if (ok) pieces.push_back(m);
      }
      for (uint32_t m : pieces)
        if (!slow_wins(filled | m, memo)) won = true;
    }
  memo[filled] = won;
  return won;
}

TEST(Blockgame, PlacementsAreTheRightShapes) {
  const auto& all = placements();
  ASSERT_EQ(all.size(), 104u);
  EXPECT_EQ(std::set<uint32_t>(all.begin(), all.end()).size(), 104u);
  int trominoes = 0, dominoes = 0;
  for (uint32_t m : all) {
    EXPECT_EQ(m & ~kFull, 0u);
    const int cells = __builtin_popcount(m);
    trominoes += cells == 3;
    dominoes += cells == 2;
  }
  EXPECT_EQ(trominoes, 64);
  EXPECT_EQ(dominoes, 40);
}

TEST(Blockgame, AgreesWithSlowMinimaxOnRandomSparseBoards) {
  Solver solver;
  std::unordered_map<uint32_t, bool> memo;
  Rng rng(3);
  for (int i = 0; i < 300; ++i) {
    uint32_t filled = 0;
    for (int b = 0; b < kBits; ++b)
      if (rng.uniform(100) < 45) filled |= 1u << b;
    EXPECT_EQ(solver.wins(filled), slow_wins(filled, memo)) << format_board(filled);
  }
}

TEST(Blockgame, SymmetricPositionsAgreeAndTheMemoMatchesTheTable) {
  Solver solver;
  WinLossMemo memo(placements(), canonical);
  Rng rng(4);
  for (int i = 0; i < 300; ++i) {
    uint32_t filled = 0;
    for (int b = 0; b < kBits; ++b)
      if (rng.uniform(100) < 40) filled |= 1u << b;
    const bool w = solver.wins(filled);
    for (int s = 0; s < 8; ++s) EXPECT_EQ(solver.wins(transform(filled, s)), w);
    EXPECT_EQ(memo.wins(filled), w);
  }
  EXPECT_EQ(transform(transform(0b11, 4), 4), 0b11u);
  EXPECT_EQ(canonical(1u << 24), 1u);  // a corner maps to (0, 0)
}

TEST(Blockgame, WinningMovesAreExactlyTheMovesToLostPositions) {
  Solver solver;
  EXPECT_FALSE(solver.wins(0));  // the empty board is LOSING
  EXPECT_TRUE(solver.winning_moves(0).empty());
  Rng rng(5);
  int winning_positions = 0;
  for (int i = 0; i < 200; ++i) {
    uint32_t filled = 0;
    for (int b = 0; b < kBits; ++b)
      if (rng.uniform(100) < 35) filled |= 1u << b;
    const auto moves = solver.winning_moves(filled);
    EXPECT_EQ(!moves.empty(), solver.wins(filled));
    winning_positions += !moves.empty();
    for (uint32_t m : moves) {
      EXPECT_EQ(filled & m, 0u);
      EXPECT_FALSE(solver.wins(filled | m));
    }
  }
  EXPECT_GT(winning_positions, 20);
}

}  // namespace
}  // namespace mushroom::blockgame
