// Worst-case inputs for each judge-format solver, built in code:
//   build/engine/solvers_bench
#include <benchmark/benchmark.h>

#include "seeds/blockgame_judge.h"
#include "seeds/chess_grundy.h"
#include "seeds/digits_square_board.h"
#include "util/rng.h"

namespace mushroom {
namespace {

std::string blockgame_input(bool random_tail) {
  Rng rng(1);
  std::string in = "50\n";
  for (int i = 0; i < 50; ++i) {
    uint32_t filled = 0;
    if (random_tail && i > 0)
      for (int b = 0; b < blockgame::kBits; ++b)
        if (rng.uniform(100) < 15) filled |= 1u << b;
    in += blockgame::format_board(filled);
  }
  return in;
}

// A fresh solver per iteration: each judge run starts with an empty table.
void BM_Blockgame50EmptyBoards(benchmark::State& state) {
  const std::string in = blockgame_input(false);
  for (auto _ : state) {
    blockgame::Solver solver;
    benchmark::DoNotOptimize(blockgame::solve_judge_input(in, solver));
  }
}
BENCHMARK(BM_Blockgame50EmptyBoards)->Unit(benchmark::kMillisecond);

void BM_BlockgameEmptyPlus49RandomBoards(benchmark::State& state) {
  const std::string in = blockgame_input(true);
  for (auto _ : state) {
    blockgame::Solver solver;
    benchmark::DoNotOptimize(blockgame::solve_judge_input(in, solver));
  }
}
BENCHMARK(BM_BlockgameEmptyPlus49RandomBoards)->Unit(benchmark::kMillisecond);

// T = 10 boards of 30x30 ones: every sub-board can be cut.
void BM_DigitsSquareBoard10x30AllOnes(benchmark::State& state) {
  std::string in = "10\n";
  for (int t = 0; t < 10; ++t) {
    in += "30\n";
    for (int r = 0; r < 30; ++r) {
      for (int c = 0; c < 30; ++c) in += c ? " 1" : "1";
      in += "\n";
    }
  }
  for (auto _ : state) benchmark::DoNotOptimize(digits_square_board::solve_judge_input(in));
}
BENCHMARK(BM_DigitsSquareBoard10x30AllOnes)->Unit(benchmark::kMillisecond);

// N = 300,000 pieces with coordinates near 10^9.
void BM_ChessGrundy300000Pieces(benchmark::State& state) {
  Rng rng(2);
  std::string in = "300000\n";
  for (int i = 0; i < 300000; ++i)
    in += std::to_string(999000000 + rng.uniform(999999)) + " " + std::to_string(999000000 + rng.uniform(999999)) +
          " " + "RBKNP"[rng.uniform(5)] + "\n";
  for (auto _ : state) benchmark::DoNotOptimize(chess_grundy::solve_judge_input(in, false));
}
BENCHMARK(BM_ChessGrundy300000Pieces)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mushroom

BENCHMARK_MAIN();
