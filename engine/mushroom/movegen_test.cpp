#include "mushroom/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "mushroom/board_gen.h"
#include "mushroom/playout_positions.h"
#include "mushroom/reference_movegen.h"

namespace mushroom {
namespace {

std::vector<Move> sorted(const MoveList& list) {
  std::vector<Move> v(list.begin(), list.end());
  std::sort(v.begin(), v.end());
  return v;
}

std::string describe(const std::vector<Move>& moves) {
  std::string s;
  for (const Move& m : moves) s += "[" + to_string(m) + "] ";
  return s;
}

// The differential test: the fast generator against the definition.
TEST(Movegen, MatchesNaiveGeneratorOn10000PlayoutPositions) {
  const auto positions = playout_positions(10000, 2024);
  ASSERT_EQ(positions.size(), 10000u);
  long total_moves = 0;
  int with_moves = 0, without_moves = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    MoveList fast;
    generate_moves(p, fast);
    std::vector<Move> naive = generate_moves_naive(p);  // already in (r1,c1,r2,c2) order
    ASSERT_EQ(sorted(fast), naive) << "position " << i << "\nfast:  " << describe(sorted(fast))
                                   << "\nnaive: " << describe(naive);
    ASSERT_EQ(has_any_move(p), !naive.empty());
    total_moves += fast.size;
    (fast.size ? with_moves : without_moves)++;
  }
  // The set spans the whole game: rich openings and exhausted endings.
  EXPECT_GT(total_moves / 10000, 5);
  EXPECT_GT(without_moves, 10);
  EXPECT_GT(with_moves, 9000);
}

TEST(Movegen, EveryKernelAgreesWithTheNaiveGenerator) {
  std::vector<MovegenKernel> kernels;
  for (MovegenKernel kernel : {MovegenKernel::kScalar, MovegenKernel::kAvx2, MovegenKernel::kAvx512}) {
    if (kernel_supported(kernel)) kernels.push_back(kernel);
    else std::cout << "kernel " << kernel_name(kernel) << " not supported by this CPU; not tested\n";
  }
  for (const Position& p : playout_positions(4000, 99)) {
    const std::vector<Move> naive = generate_moves_naive(p);
    for (MovegenKernel kernel : kernels) {
      MoveList list;
      generate_moves_with(kernel, p, list);
      ASSERT_EQ(sorted(list), naive) << kernel_name(kernel);
    }
  }
  // Dense boards stress the cap of column sums at 11 in the SIMD kernels.
  Position nines;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) nines.set_digit(r, c, (r + c) % 2 ? 9 : 1);
  for (MovegenKernel kernel : {MovegenKernel::kScalar, MovegenKernel::kAvx2, MovegenKernel::kAvx512}) {
    if (!kernel_supported(kernel)) continue;
    MoveList list;
    generate_moves_with(kernel, nines, list);
    EXPECT_EQ(sorted(list), generate_moves_naive(nines)) << kernel_name(kernel);
  }
}

// The margin gain of one rectangle by the rules' definition: each cell the
// mover did not own is gained, and each the opponent owned is also lost to
// the opponent.
int gain_by_definition(const Position& p, const Move& m) {
  const Owner mine = p.to_move() == kFirst ? Owner::kFirst : Owner::kSecond;
  const Owner theirs = p.to_move() == kFirst ? Owner::kSecond : Owner::kFirst;
  int gain = 0;
  for (int r = m.r1; r <= m.r2; ++r)
    for (int c = m.c1; c <= m.c2; ++c) gain += (p.owner(r, c) != mine) + (p.owner(r, c) == theirs);
  return gain;
}

TEST(Movegen, BestRectangleGainIsTheLargestGainOfTheGeneratedMovesAndCountsThem) {
  int stealing_positions = 0;
  for (const Position& p : playout_positions(4000, 7)) {
    int best = 0;
    bool steals = false;
    for (const Move& m : generate_moves_naive(p)) {
      const int gain = gain_by_definition(p, m);
      best = std::max(best, gain);
      steals |= gain > m.area();
    }
    stealing_positions += steals;
    ASSERT_EQ(best_rectangle_gain(p), best);
    const int legal = int(generate_moves_naive(p).size());
    for (MovegenKernel kernel : {MovegenKernel::kScalar, MovegenKernel::kAvx2, MovegenKernel::kAvx512}) {
      if (!kernel_supported(kernel)) continue;
      int count = -1;
      ASSERT_EQ(best_rectangle_gain_with(kernel, p, &count), best) << kernel_name(kernel);
      ASSERT_EQ(count, legal) << kernel_name(kernel);
    }
  }
  EXPECT_GT(stealing_positions, 100);  // the set exercises steals, which count twice
  Position over;
  over.set_game_over(true);
  EXPECT_EQ(best_rectangle_gain(over), 0);
}

TEST(Movegen, TwoPointerReferenceAgreesToo) {
  for (const Position& p : playout_positions(3000, 77)) {
    MoveList fast, two;
    generate_moves(p, fast);
    generate_moves_two_pointer(p, two);
    ASSERT_EQ(sorted(fast), sorted(two));
  }
}

TEST(Movegen, OrderIsStable) {
  const Position p = random_board(5);
  MoveList a, b;
  generate_moves(p, a);
  generate_moves(p, b);
  ASSERT_EQ(a.size, b.size);
  for (int i = 0; i < a.size; ++i) EXPECT_EQ(a[i], b[i]);
  // Ordered by (r1, r2, c1).
  for (int i = 1; i < a.size; ++i) {
    auto key = [](const Move& m) { return std::tuple(m.r1, m.r2, m.c1); };
    EXPECT_LT(key(a[i - 1]), key(a[i]));
  }
}

TEST(Movegen, HandBuiltPositions) {
  Position p;  // empty board: no moves
  MoveList list;
  EXPECT_EQ(generate_moves(p, list), 0);
  // A lone 9 and a lone 1 far apart, joined across empty cells.
  p.set_digit(0, 0, 9);
  p.set_digit(9, 16, 1);
  ASSERT_EQ(generate_moves(p, list), 1);
  EXPECT_EQ(list[0], Move::rect(0, 0, 9, 16));
  // A third mushroom inside breaks the sum, one on the border line too.
  p.set_digit(4, 8, 2);
  EXPECT_EQ(generate_moves(p, list), 0);
  // 9+1 vertical pair next to it, and a column of ten 1s.
  Position q;
  for (int r = 0; r < kRows; ++r) q.set_digit(r, 5, 1);
  EXPECT_EQ(generate_moves(q, list), 1);
  EXPECT_EQ(list[0], Move::rect(0, 5, 9, 5));
  // Digit 10 is impossible, but a single cell can never be a move with 1..9.
  Position s;
  s.set_digit(3, 3, 5);
  s.set_digit(3, 4, 5);
  s.set_digit(4, 3, 5);
  // {5,5} right, {5,5} down: two moves; the L of three sums to 15.
  EXPECT_EQ(generate_moves(s, list), 2);
}

TEST(Movegen, DenseBoardOfOnesHitsManyRectangles) {
  Position p;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) p.set_digit(r, c, 1);
  MoveList list;
  generate_moves(p, list);
  // Rectangles of area 10: 1x10 (8 per row * 10 rows), 10x1 (17 columns),
  // 2x5 (9 * 13 places) and 5x2 (6 * 16 places).
  EXPECT_EQ(list.size, 80 + 17 + 9 * 13 + 6 * 16);
  EXPECT_EQ(sorted(list), generate_moves_naive(p));
}

}  // namespace
}  // namespace mushroom
