// Google Benchmark for the move generators on the committed position set:
//   build/engine/movegen_bench   (run from the repository root)
#include <benchmark/benchmark.h>

#include "mushroom/movegen.h"
#include "mushroom/position_io.h"
#include "mushroom/reference_movegen.h"
#include "util/text.h"

namespace mushroom {
namespace {

const std::vector<Position>& positions() {
  static const auto set = parse_position_list(read_file("bench/movegen_positions.txt"), "bench/movegen_positions.txt");
  return set;
}

void BM_Kernel(benchmark::State& state, MovegenKernel kernel) {
  if (!kernel_supported(kernel)) {
    state.SkipWithError("kernel not supported by this CPU");
    return;
  }
  MoveList list;
  for (auto _ : state)
    for (const Position& p : positions()) benchmark::DoNotOptimize(generate_moves_with(kernel, p, list));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(positions().size()));
}
BENCHMARK_CAPTURE(BM_Kernel, scalar, MovegenKernel::kScalar);
BENCHMARK_CAPTURE(BM_Kernel, avx2, MovegenKernel::kAvx2);
BENCHMARK_CAPTURE(BM_Kernel, avx512bw, MovegenKernel::kAvx512);

void BM_TwoPointer(benchmark::State& state) {
  MoveList list;
  for (auto _ : state)
    for (const Position& p : positions()) benchmark::DoNotOptimize(generate_moves_two_pointer(p, list));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(positions().size()));
}
BENCHMARK(BM_TwoPointer);

void BM_HasAnyMove(benchmark::State& state) {
  for (auto _ : state)
    for (const Position& p : positions()) benchmark::DoNotOptimize(has_any_move(p));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(positions().size()));
}
BENCHMARK(BM_HasAnyMove);

}  // namespace
}  // namespace mushroom

BENCHMARK_MAIN();
