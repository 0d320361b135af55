// The learned evaluation with 2-D window features (nnue/network.h,
// Shape::windows): the integer runtime keeps their blocks incrementally
// exactly as a fresh start counts them, on every kernel path, close to the
// float model, and the reader bounds their rows like the others.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "mushroom/playout_positions.h"
#include "nnue/evaluator.h"
#include "nnue/features.h"
#include "nnue/test_util.h"

namespace mushroom {
namespace {

nnue::Shape window_shape(nnue::Windows windows, int hidden = 32) {
  nnue::Shape shape;
  shape.hidden = hidden;
  shape.l1 = 16;
  shape.l2 = 8;
  shape.windows = windows;
  return shape;
}

// A model whose window rows are louder than the rest, so that a block
// counted wrong moves the evaluation (random rows of +-0.03 through 600
// features could hide one row).
nnue::Network window_model(nnue::Windows windows, uint64_t seed) {
  nnue::Network m = nnue::random_network(window_shape(windows), seed);
  const size_t first = size_t(nnue::kWindowBase) * size_t(m.shape.hidden);
  for (size_t i = first; i < m.ft_weight.size(); ++i) m.ft_weight[i] *= 4;
  return m;
}

class NnueWindows : public ::testing::TestWithParam<nnue::Windows> {};

// The integer runtime's distance from the float model along lines (below):
// twice the figures measured (mean 1.14 and worst 8.18 units, the larger
// of the two kinds), in 1/16 cells.
constexpr double kMeanBound = 2.3, kWorstBound = 16.5;

// Pushes, pops and passes along random lines, evaluated now and then (so
// several plies catch up at once): the evaluation always equals a fresh
// start's, on the scalar path and on the default one.
TEST_P(NnueWindows, IncrementalBlocksMatchAFreshStart) {
  const nnue::Network model = window_model(GetParam(), 5);
  ASSERT_EQ(model.ft_weight.size(), size_t(nnue::feature_count(model.shape)) * 32);
  for (const bool simd : {false, true}) {
    nnue::Evaluator incremental(model, simd), fresh(model, simd);
    Rng rng(17);
    int checked = 0;
    for (const Position& root : playout_positions(12, 21)) {
      incremental.set_root(root);
      std::vector<Position> line = {root};
      for (int step = 0; step < 50 && !line.back().game_over(); ++step) {
        nnue::random_step(line, rng, 4, 10, {&incremental});
        if (rng.uniform(3) == 0) continue;
        const Position& now = line.back();
        fresh.set_root(now);
        ASSERT_EQ(incremental.evaluate(now, scan_leaf_moves(now)), fresh.evaluate(now, scan_leaf_moves(now)))
            << "step " << step << ", simd " << simd;
        ++checked;
      }
    }
    EXPECT_GT(checked, 200);
  }
}

// The windows move the evaluation: the same model with its window rows
// zeroed evaluates differently (the check above is not vacuous), and the
// SIMD paths give the scalar path's integers.
TEST_P(NnueWindows, BlocksMoveTheEvaluationOnEveryKernelPath) {
  const nnue::Network model = window_model(GetParam(), 9);
  nnue::Network blind = model;
  std::fill(blind.ft_weight.begin() + long(size_t(nnue::kWindowBase) * 32), blind.ft_weight.end(), 0.0f);
  nnue::Evaluator scalar(model, nnue::kernels::Isa::kScalar), without(blind, nnue::kernels::Isa::kScalar);
  int differ = 0, positions = 0;
  for (const Position& p : playout_positions(40, 4)) {
    scalar.set_root(p);
    without.set_root(p);
    const int value = scalar.evaluate(p, scan_leaf_moves(p));
    differ += value != without.evaluate(p, scan_leaf_moves(p));
    ++positions;
    for (nnue::kernels::Isa isa : {nnue::kernels::Isa::kAvx2, nnue::kernels::Isa::kAvx512}) {
      if (int(isa) > int(nnue::kernels::best_isa())) continue;
      nnue::Evaluator simd(model, isa);
      simd.set_root(p);
      ASSERT_EQ(simd.evaluate(p, scan_leaf_moves(p)), value) << nnue::kernels::isa_name(isa);
    }
  }
  EXPECT_GT(differ, positions * 3 / 4);
}

// The integer runtime against the float model along random lines: the
// runtime reaches each position through move_changes (pushes from a root
// 12 plies back at most), the float reference counts its features afresh
// (active_features), so a block the update lists wrongly shows as more
// than rounding. The bounds are twice the measured figures.
TEST_P(NnueWindows, IntegerRuntimeStaysNearTheFloatModelAlongLines) {
  const nnue::Network model = window_model(GetParam(), 13);
  nnue::Evaluator learned(model);
  double worst = 0, total = 0, spread = 0;
  int checked = 0;
  Rng rng(41);
  for (const Position& root : playout_positions(30, 6)) {
    learned.set_root(root);
    std::vector<Position> line = {root};
    for (int step = 0; step < 12 && !line.back().game_over(); ++step) {
      nnue::random_step(line, rng, 1000, 0, {&learned});
      const Position& p = line.back();
      const double reference = 16.0 * nnue::reference_output(model, p, scan_leaf_moves(p));
      const double error = std::fabs(learned.evaluate(p, scan_leaf_moves(p)) - reference);
      worst = std::max(worst, error);
      total += error;
      spread = std::max(spread, std::fabs(reference - 16.0 * p.margin_for_side_to_move()));
      ++checked;
    }
  }
  std::printf("%s: |integer - float| mean %.2f, worst %.2f units over %d positions; the net moves the evaluation by "
              "up to %.1f units\n", nnue::windows_name(GetParam()), total / checked, worst, checked, spread);
  EXPECT_GT(checked, 250);
  EXPECT_LE(total / checked, kMeanBound);
  EXPECT_LE(worst, kWorstBound);
  EXPECT_GT(spread, 8.0);
}

// The reader bounds the accumulator with the window rows counted, as the
// runtime adds them (rounded to 1/127): rows of 0.5 (64 after rounding)
// fit with 456 features (29,184) and overflow int16 with 144 blocks more
// (38,400), and are refused naming the unit.
TEST_P(NnueWindows, TheAccumulatorsRangeCountsTheBlocks) {
  nnue::Network model = window_model(GetParam(), 3);
  for (float& w : model.ft_weight) w = 0.5f;
  std::fill(model.ft_bias.begin(), model.ft_bias.end(), 0.0f);
  nnue::Network plain = model;
  plain.shape.windows = nnue::Windows::kNone;
  plain.ft_weight.resize(size_t(nnue::kFeatures) * 32);
  EXPECT_NO_THROW(nnue::parse_network(nnue::serialize_network(plain), "plain"));
  try {
    nnue::parse_network(nnue::serialize_network(model), "windows");
    ADD_FAILURE() << "600 rows of 0.5 were read";
  } catch (const nnue::NetworkError& e) {
    EXPECT_NE(std::string(e.what()).find("windows: transformer unit 0 can reach 38400 in the int16 accumulator"),
              std::string::npos)
        << e.what();
  }
}

// With 2x2-edge windows each table is bounded by its own blocks: 46 on the
// edge, 98 inside. Edge rows of 1 and inside rows of 3 reach 46 x 127 + 98
// x 381 = 43,180 and are refused; the other way round, 46 x 381 + 98 x 127
// = 29,972, they fit.
TEST(NnueWindowsEdge, EachTableIsBoundedByItsOwnBlocks) {
  nnue::Network model = window_model(nnue::Windows::k2x2Edge, 3);
  const auto rows = [&](float edge, float inside) {
    std::fill(model.ft_weight.begin(), model.ft_weight.end(), 0.0f);
    std::fill(model.ft_bias.begin(), model.ft_bias.end(), 0.0f);
    const auto table0 = model.ft_weight.begin() + long(nnue::kWindowBase) * 32;
    const auto table1 = table0 + long(nnue::kWindowFeatures) * 32;
    std::fill(table0, table1, edge);
    std::fill(table1, model.ft_weight.end(), inside);
    return nnue::serialize_network(model);
  };
  try {
    nnue::parse_network(rows(1.0f, 3.0f), "edge");
    ADD_FAILURE() << "the inside table's 98 blocks were not counted as 98";
  } catch (const nnue::NetworkError& e) {
    EXPECT_NE(std::string(e.what()).find("can reach 43180 "), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(nnue::parse_network(rows(3.0f, 1.0f), "edge"));
}

INSTANTIATE_TEST_SUITE_P(Kinds, NnueWindows, ::testing::Values(nnue::Windows::k2x2, nnue::Windows::k2x2Edge),
                         [](const auto& info) {
                           return info.param == nnue::Windows::k2x2 ? std::string("TwoByTwo")
                                                                    : std::string("TwoByTwoEdge");
                         });

}  // namespace
}  // namespace mushroom
