// Every kernel version against the scalar one, on random data at the sizes
// models can have: the integers must be identical. Versions the CPU lacks
// are skipped (the tree test, search_golden_test.cpp, covers whichever it
// has through the whole search).
#include "mushroom/learned_eval_kernels.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "mushroom/learned_evaluator.h"

namespace mushroom::eval_kernels {
namespace {

std::vector<Isa> simd_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512})
    if (int(isa) <= int(best_isa())) out.push_back(isa);
  return out;
}

TEST(EvalKernels, AccumulatorUpdatesMatchTheScalarOnes) {
  if (simd_isas().empty()) GTEST_SKIP() << "this CPU has no AVX2";
  std::mt19937 rng(58);
  for (int n : {16, 48, 64, 128, 144, 272, 512}) {
    constexpr int kRowCount = 300;
    std::vector<int16_t> rows(static_cast<size_t>(kRowCount) * size_t(n)), from(static_cast<size_t>(n));
    for (auto& v : rows) v = int16_t(int(rng() % 4001) - 2000);
    for (auto& v : from) v = int16_t(int(rng() % 65536) - 32768);  // wrap-around must agree too
    for (int trial = 0; trial < 20; ++trial) {
      const int n_removed = int(rng() % 40), n_added = int(rng() % 40);
      std::vector<int> removed(static_cast<size_t>(n_removed)), added(static_cast<size_t>(n_added));
      for (auto& i : removed) i = int(rng() % kRowCount);
      for (auto& i : added) i = int(rng() % kRowCount);
      std::vector<int16_t> want(static_cast<size_t>(n));
      update(Isa::kScalar, from.data(), want.data(), rows.data(), n, removed.data(), n_removed, added.data(), n_added);
      for (Isa isa : simd_isas()) {
        std::vector<int16_t> got(static_cast<size_t>(n));
        update(isa, from.data(), got.data(), rows.data(), n, removed.data(), n_removed, added.data(), n_added);
        ASSERT_EQ(got, want) << isa_name(isa) << " n=" << n;
        std::vector<int16_t> in_place = from;  // from and to the same array
        update(isa, in_place.data(), in_place.data(), rows.data(), n, removed.data(), n_removed, added.data(),
               n_added);
        ASSERT_EQ(in_place, want) << isa_name(isa) << " in place, n=" << n;
      }
    }
  }
}

TEST(EvalKernels, CreluMatchesTheScalarOne) {
  if (simd_isas().empty()) GTEST_SKIP() << "this CPU has no AVX2";
  std::mt19937 rng(7);
  for (int n : {1, 17, 32, 64, 130, 512}) {
    std::vector<int16_t> acc(static_cast<size_t>(n));
    for (auto& v : acc) v = int16_t(int(rng() % 600) - 300);
    std::vector<uint8_t> want(static_cast<size_t>(n));
    crelu(Isa::kScalar, acc.data(), want.data(), n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(want[size_t(i)], std::clamp<int>(acc[size_t(i)], 0, 127));
    for (Isa isa : simd_isas()) {
      std::vector<uint8_t> got(static_cast<size_t>(n));
      crelu(isa, acc.data(), got.data(), n);
      ASSERT_EQ(got, want) << isa_name(isa) << " n=" << n;
    }
  }
}

// x in 0..127, a share of zeros (crelu's output has many), w in -127..127.
std::vector<uint8_t> random_inputs(std::mt19937& rng, int n, int used) {
  std::vector<uint8_t> x(static_cast<size_t>(n), 0);  // zeros past `used`, as the padded inputs are
  for (int i = 0; i < used; ++i) x[size_t(i)] = rng() % 3 == 0 ? 0 : uint8_t(rng() % 128);
  return x;
}

TEST(EvalKernels, DenseLayersMatchTheScalarOnes) {
  std::mt19937 rng(11);
  for (int stride : {32, 160, 288, 1056}) {
    for (int n_out : {1, 3, 4, 5, 16, 64}) {
      const std::vector<uint8_t> x = random_inputs(rng, stride, stride - 5);
      std::vector<int8_t> w(static_cast<size_t>(n_out) * size_t(stride));
      for (auto& v : w) v = int8_t(int(rng() % 255) - 127);
      std::vector<int32_t> want(static_cast<size_t>(n_out));
      dense(Isa::kScalar, x.data(), w.data(), stride, n_out, want.data());
      for (Isa isa : simd_isas()) {
        std::vector<int32_t> got(static_cast<size_t>(n_out));
        dense(isa, x.data(), w.data(), stride, n_out, got.data());
        ASSERT_EQ(got, want) << isa_name(isa) << " stride=" << stride << " n_out=" << n_out;
      }
      // The sparse first layer, from the same row-major weights regrouped:
      // the layout and the skipped zeros must not change a sum.
      const int outs = chunked_outputs(n_out);
      std::vector<int8_t> grouped(static_cast<size_t>(stride) * size_t(outs));
      chunked_dense_weights(w.data(), stride, n_out, grouped.data());
      for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
        if (int(isa) > int(best_isa())) continue;
        std::vector<int32_t> got(static_cast<size_t>(outs), -1);
        dense_sparse(isa, x.data(), stride, grouped.data(), outs, got.data());
        for (int j = 0; j < outs; ++j)
          ASSERT_EQ(got[size_t(j)], j < n_out ? want[size_t(j)] : 0)
              << isa_name(isa) << " sparse stride=" << stride << " n_out=" << n_out << " output " << j;
      }
    }
  }
}

TEST(EvalKernels, AllZeroInputsGiveZeroSums) {
  std::vector<uint8_t> x(160, 0);
  std::vector<int8_t> grouped(160 * 16, 5);
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (int(isa) > int(best_isa())) continue;
    std::vector<int32_t> out(16, -1);
    dense_sparse(isa, x.data(), 160, grouped.data(), 16, out.data());
    EXPECT_EQ(out, std::vector<int32_t>(16, 0)) << isa_name(isa);
  }
}

TEST(EvalKernels, KernelsTheCpuLacksAreRefusedByName) {
  EXPECT_STREQ(isa_name(Isa::kAvx512), "avx512");
  EXPECT_STREQ(isa_name(Isa::kAvx2), "avx2");
  EXPECT_STREQ(isa_name(Isa::kScalar), "scalar");
  const LearnedEvalModel model = LearnedEvalModel::hand_equivalent(64, 16, 16);
  EXPECT_EQ(LearnedEvaluator(model, Isa::kScalar).isa(), Isa::kScalar);
  EXPECT_EQ(LearnedEvaluator(model).isa(), default_isa());
  EXPECT_LE(int(default_isa()), int(Isa::kAvx2)) << "AVX-512 runs only when asked for";
  if (best_isa() == Isa::kAvx512) GTEST_SKIP() << "this CPU runs every version";
  try {
    LearnedEvaluator evaluator(model, Isa::kAvx512);
    FAIL() << "AVX-512 kernels were accepted on a CPU without them";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("avx512"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::eval_kernels
