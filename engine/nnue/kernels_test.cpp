// Every kernel version against the scalar one, on random data at the sizes
// models can have: the integers must be identical. Versions the CPU lacks
// are skipped (the tree test, agents/search_golden_test.cpp, covers whichever it
// has through the whole search).
#include "nnue/kernels.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "nnue/evaluator.h"

namespace mushroom::nnue::kernels {
namespace {

std::vector<Isa> simd_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512})
    if (int(isa) <= int(best_isa())) out.push_back(isa);
  return out;
}

TEST(NnueKernels, AccumulatorUpdatesMatchTheScalarOnes) {
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

std::vector<Isa> every_isa() {
  std::vector<Isa> out{Isa::kScalar};
  for (Isa isa : simd_isas()) out.push_back(isa);
  return out;
}

// Compact (int8) rows give exactly the sums of int16 rows holding the same
// values, in update and update_pair, on every path: int8's whole range, and
// accumulators that wrap around.
TEST(NnueKernels, CompactRowsGiveTheInt16RowsSums) {
  std::mt19937 rng(59);
  for (int n : {16, 48, 64, 128, 144, 272}) {
    constexpr int kRowCount = 200;
    std::vector<int8_t> rows8(static_cast<size_t>(kRowCount) * size_t(n));
    for (auto& v : rows8) v = int8_t(int(rng() % 256) - 128);
    const std::vector<int16_t> rows16(rows8.begin(), rows8.end());
    std::vector<int16_t> from(size_t(2) * size_t(n));
    for (auto& v : from) v = int16_t(int(rng() % 65536) - 32768);
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<int> lists[5];
      for (auto& list : lists) {
        list.resize(rng() % 30);
        for (auto& i : list) i = int(rng() % kRowCount);
      }
      PairChanges c;
      c.removed_both = lists[0].data(), c.n_removed_both = int(lists[0].size());
      for (int p = 0; p < 2; ++p) {
        c.removed[p] = lists[1 + p].data(), c.n_removed[p] = int(lists[1 + p].size());
        c.added[p] = lists[3 + p].data(), c.n_added[p] = int(lists[3 + p].size());
      }
      for (Isa isa : every_isa()) {
        std::vector<int16_t> want(from.size()), got(from.size());
        update(isa, from.data(), want.data(), rows16.data(), n, lists[1].data(), c.n_removed[0], lists[3].data(),
               c.n_added[0]);
        update(isa, from.data(), got.data(), rows8.data(), n, lists[1].data(), c.n_removed[0], lists[3].data(),
               c.n_added[0]);
        ASSERT_EQ(got, want) << "update, " << isa_name(isa) << " n=" << n;
        update_pair(isa, from.data(), want.data(), rows16.data(), n, c);
        update_pair(isa, from.data(), got.data(), rows8.data(), n, c);
        ASSERT_EQ(got, want) << "update_pair, " << isa_name(isa) << " n=" << n;
        std::vector<int16_t> in_place = from;
        update_pair(isa, in_place.data(), in_place.data(), rows8.data(), n, c);
        ASSERT_EQ(in_place, want) << "update_pair in place, " << isa_name(isa) << " n=" << n;
      }
    }
  }
}

// update_pair against update() on each view: the rows both views remove
// and each view's own removed and added rows.
TEST(NnueKernels, PairUpdatesMatchAnUpdateOfEachView) {
  std::mt19937 rng(59);
  for (int n : {16, 48, 64, 80, 128, 144, 272, 512}) {
    constexpr int kRowCount = 300;
    std::vector<int16_t> rows(static_cast<size_t>(kRowCount) * size_t(n)), from(2 * static_cast<size_t>(n));
    for (auto& v : rows) v = int16_t(int(rng() % 4001) - 2000);
    for (auto& v : from) v = int16_t(int(rng() % 65536) - 32768);  // wrap-around must agree too
    const auto random_list = [&](int most) {
      std::vector<int> list(rng() % size_t(most + 1));
      for (auto& i : list) i = int(rng() % kRowCount);
      return list;
    };
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<int> both = random_list(30);
      const std::vector<int> removed[2] = {random_list(30), random_list(30)};
      const std::vector<int> added[2] = {random_list(40), random_list(40)};
      std::vector<int16_t> want(2 * static_cast<size_t>(n));
      for (int p = 0; p < 2; ++p) {
        std::vector<int> all_removed = both;
        all_removed.insert(all_removed.end(), removed[p].begin(), removed[p].end());
        update(Isa::kScalar, from.data() + size_t(p) * size_t(n), want.data() + size_t(p) * size_t(n), rows.data(), n,
               all_removed.data(), int(all_removed.size()), added[p].data(), int(added[p].size()));
      }
      PairChanges changes;
      changes.removed_both = both.data();
      changes.n_removed_both = int(both.size());
      for (int p = 0; p < 2; ++p) {
        changes.removed[p] = removed[p].data();
        changes.n_removed[p] = int(removed[p].size());
        changes.added[p] = added[p].data();
        changes.n_added[p] = int(added[p].size());
      }
      for (Isa isa : every_isa()) {
        std::vector<int16_t> got(2 * static_cast<size_t>(n));
        update_pair(isa, from.data(), got.data(), rows.data(), n, changes);
        ASSERT_EQ(got, want) << isa_name(isa) << " n=" << n << " trial " << trial;
        std::vector<int16_t> in_place = from;
        update_pair(isa, in_place.data(), in_place.data(), rows.data(), n, changes);
        ASSERT_EQ(in_place, want) << isa_name(isa) << " in place, n=" << n;
      }
    }
  }
}

TEST(NnueKernels, RescaledCreluRoundsAndClampsAsDefined) {
  std::mt19937 rng(60);
  for (int n : {1, 7, 8, 15, 16, 17, 32, 33, 64}) {
    for (int shift : {1, 6, 12}) {
      std::vector<int32_t> sums(static_cast<size_t>(n)), bias(static_cast<size_t>(n));
      for (auto& v : sums) v = int32_t(rng() % 40001) - 20000;
      for (auto& v : bias) v = int32_t(rng() % 4001) - 2000;
      sums[0] = (64 << shift) - bias[0] - (1 << (shift - 1));  // exactly half a step below 64: rounds up to 64
      std::vector<uint8_t> want(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) {
        const int64_t scaled = (int64_t(bias[size_t(j)]) + sums[size_t(j)] + (int64_t(1) << (shift - 1))) >> shift;
        want[size_t(j)] = uint8_t(std::clamp<int64_t>(scaled, 0, 127));
      }
      EXPECT_EQ(want[0], 64);
      for (Isa isa : every_isa()) {
        std::vector<uint8_t> got(static_cast<size_t>(n), 255);
        rescaled_crelu(isa, sums.data(), bias.data(), n, shift, got.data());
        ASSERT_EQ(got, want) << isa_name(isa) << " n=" << n << " shift=" << shift;
      }
    }
  }
}

TEST(NnueKernels, CreluMatchesTheScalarOne) {
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

TEST(NnueKernels, DenseLayersMatchTheScalarOnes) {
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

// Products added in int16 before widening: with the most groups the
// weights allow, every version gives the scalar sums; past that bound an
// input can overflow int16, so the bound is what keeps the sums exact.
TEST(NnueKernels, Int16GroupsKeepTheSumsExactUpToTheirBound) {
  std::mt19937 rng(61);
  for (int stride : {32, 160, 288, 1056}) {
    for (int n_out : {8, 16, 64}) {
      for (int largest : {3, 12, 24, 127}) {
        const std::vector<uint8_t> x = random_inputs(rng, stride, stride - 5);
        std::vector<int8_t> w(static_cast<size_t>(n_out) * size_t(stride));
        for (auto& v : w) v = int8_t(int(rng() % unsigned(2 * largest + 1)) - largest);
        std::vector<int8_t> grouped(static_cast<size_t>(stride) * size_t(n_out));
        chunked_dense_weights(w.data(), stride, n_out, grouped.data());
        const int groups = int16_groups_for(grouped.data(), stride, n_out);
        ASSERT_GE(groups, 1);
        ASSERT_LE(groups, kMaxInt16Groups);
        if (largest <= 12) {
          EXPECT_GT(groups, 1) << "small weights allow int16 runs, stride=" << stride;
        }
        std::vector<int32_t> want(static_cast<size_t>(n_out));
        dense(Isa::kScalar, x.data(), w.data(), stride, n_out, want.data());
        for (Isa isa : every_isa()) {
          std::vector<int32_t> got(static_cast<size_t>(n_out), -1);
          dense_sparse(isa, x.data(), stride, grouped.data(), n_out, got.data(), groups);
          ASSERT_EQ(got, want) << isa_name(isa) << " stride=" << stride << " n_out=" << n_out << " |w|<=" << largest
                               << " groups=" << groups;
        }
      }
    }
  }
  // Every weight 127 and every input 127: one group's pair is 32,258, two
  // overflow int16. The bound says 1, and 2 would be wrong.
  std::vector<uint8_t> x(32, 127);
  std::vector<int8_t> grouped(32 * 8, 127);
  EXPECT_EQ(int16_groups_for(grouped.data(), 32, 8), 1);
  std::vector<int32_t> exact(8), widened_late(8);
  dense_sparse(Isa::kScalar, x.data(), 32, grouped.data(), 8, exact.data());
  EXPECT_EQ(exact[0], 32 * 127 * 127);
  if (!simd_isas().empty()) {
    dense_sparse(simd_isas()[0], x.data(), 32, grouped.data(), 8, widened_late.data(), 2);
    EXPECT_NE(widened_late, exact) << "two groups of 127s overflow int16: the bound is needed";
  }
  // Every weight 8: 127 * 32 per group, so 8 groups fit and 9 do not.
  std::vector<int8_t> eights(size_t(160) * 16, 8);
  EXPECT_EQ(int16_groups_for(eights.data(), 160, 16), 8);
}

TEST(NnueKernels, AllZeroInputsGiveZeroSums) {
  std::vector<uint8_t> x(160, 0);
  std::vector<int8_t> grouped(160 * 16, 5);
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (int(isa) > int(best_isa())) continue;
    std::vector<int32_t> out(16, -1);
    dense_sparse(isa, x.data(), 160, grouped.data(), 16, out.data());
    EXPECT_EQ(out, std::vector<int32_t>(16, 0)) << isa_name(isa);
  }
}

TEST(NnueKernels, KernelsTheCpuLacksAreRefusedByName) {
  EXPECT_STREQ(isa_name(Isa::kAvx512), "avx512");
  EXPECT_STREQ(isa_name(Isa::kAvx2), "avx2");
  EXPECT_STREQ(isa_name(Isa::kScalar), "scalar");
  const nnue::Network model = nnue::Network::hand_equivalent({64, 16, 16});
  EXPECT_EQ(nnue::Evaluator(model, Isa::kScalar).isa(), Isa::kScalar);
  EXPECT_EQ(nnue::Evaluator(model).isa(), default_isa());
  EXPECT_LE(int(default_isa()), int(Isa::kAvx2)) << "AVX-512 runs only when asked for";
  if (best_isa() == Isa::kAvx512) GTEST_SKIP() << "this CPU runs every version";
  try {
    nnue::Evaluator evaluator(model, Isa::kAvx512);
    FAIL() << "AVX-512 kernels were accepted on a CPU without them";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("avx512"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::nnue::kernels
