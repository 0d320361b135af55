#include "solvers/grundy.h"

#include <gtest/gtest.h>

namespace mushroom {
namespace {

TEST(Grundy, MexOfSmallSets) {
  MexSet s;
  EXPECT_EQ(s.mex(), 0u);
  s.add(1);
  EXPECT_EQ(s.mex(), 0u);
  s.add(0);
  EXPECT_EQ(s.mex(), 2u);
  for (unsigned v = 2; v < 70; ++v) s.add(v);
  EXPECT_EQ(s.mex(), 70u);
  s.add(1000);  // ignored: out of range
  EXPECT_EQ(s.mex(), 70u);
}

TEST(Grundy, SubtractionGameIsNModFour) {
  // Take 1, 2 or 3 from a heap: g(n) = n mod 4.
  GrundyMemo<int> memo([](const int& n, const std::function<void(const int&)>& visit) {
    for (int k = 1; k <= 3 && k <= n; ++k) visit(n - k);
  });
  for (int n = 0; n < 200; ++n) EXPECT_EQ(memo.grundy(n), unsigned(n % 4)) << n;
  EXPECT_EQ(memo.size(), 200u);
}

TEST(Grundy, SumOfGamesIsTheXor) {
  // Two subtraction heaps {1,2,3}: a sum is lost exactly when the XOR is 0.
  GrundyMemo<int> single([](const int& n, const std::function<void(const int&)>& visit) {
    for (int k = 1; k <= 3 && k <= n; ++k) visit(n - k);
  });
  GrundyMemo<int> pair([](const int& state, const std::function<void(const int&)>& visit) {
    const int a = state / 100, b = state % 100;
    for (int k = 1; k <= 3 && k <= a; ++k) visit((a - k) * 100 + b);
    for (int k = 1; k <= 3 && k <= b; ++k) visit(a * 100 + b - k);
  });
  for (int a = 0; a < 20; ++a)
    for (int b = 0; b < 20; ++b) EXPECT_EQ(pair.grundy(a * 100 + b), single.grundy(a) ^ single.grundy(b));
}

TEST(Grundy, TableOfARookIsXor) {
  const auto g = grundy_table_2d(16, [](int x, int y, const std::function<void(int, int)>& visit) {
    for (int k = 1; k <= x; ++k) visit(x - k, y);
    for (int k = 1; k <= y; ++k) visit(x, y - k);
  });
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 16; ++y) EXPECT_EQ(g[size_t(x)][size_t(y)], unsigned(x ^ y));
}

}  // namespace
}  // namespace mushroom
