#include "nnue/evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "nnue/test_util.h"
#include "util/rng.h"

namespace mushroom {
namespace {

using nnue::random_step;

nnue::Network random_model(int hidden, int l1, int l2, uint64_t seed, int phase_buckets = 1, int seat_buckets = 1,
                           bool mobility = false) {
  return nnue::random_network({hidden, l1, l2, phase_buckets, seat_buckets, mobility}, seed);
}

// With zero weights and skips (1, 0.5) the learned evaluation is the hand
// evaluation exactly (agents/nnue_search_test.cpp: so alpha-beta with it
// searches the same tree).
TEST(NnueEvaluator, TheHandEquivalentModelIsTheHandEvaluationExactly) {
  nnue::Evaluator learned(nnue::Network::hand_equivalent({32, 8, 8}));
  for (const Position& p : playout_positions(40, 3)) {
    learned.set_root(p);
    ASSERT_EQ(learned.evaluate(p, scan_leaf_moves(p)), hand_evaluation(p, best_margin_gain(p)));
  }
}

// The accumulators updated move by move (pushes, pops and passes along
// random lines) give the same evaluation as a fresh start from the position.
TEST(NnueEvaluator, IncrementalUpdatesMatchAFreshStart) {
  const nnue::Network model = random_model(32, 16, 8, 5);
  nnue::Evaluator incremental(model), fresh(model);
  Rng rng(17);
  int checked = 0;
  for (const Position& root : playout_positions(12, 21)) {
    incremental.set_root(root);
    std::vector<Position> line = {root};
    for (int step = 0; step < 40 && !line.back().game_over(); ++step) {
      random_step(line, rng, 4, 10, {&incremental});
      const Position& now = line.back();
      fresh.set_root(now);
      ASSERT_EQ(incremental.evaluate(now, scan_leaf_moves(now)), fresh.evaluate(now, scan_leaf_moves(now)));
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

// The accumulators follow the pushes only when an evaluation needs them:
// a walk that evaluates now and then, after several unevaluated pushes and
// after pops below the last evaluated ply, gets a fresh start's values.
TEST(NnueEvaluator, LazyUpdatesCatchUpOverSeveralPlies) {
  const nnue::Network model = random_model(64, 16, 16, 23);
  for (bool simd : {true, false}) {
    nnue::Evaluator lazy(model, simd), fresh(model, simd);
    Rng rng(29);
    int checked = 0, caught_up_three = 0, after_deep_pops = 0;
    for (const Position& root : playout_positions(16, 13)) {
      lazy.set_root(root);
      std::vector<Position> line = {root};
      // Pushes since the last evaluation; the line's length at it, and the
      // shortest the line has been since.
      int unevaluated = 0, evaluated_length = 1, lowest_since = 1;
      for (int step = 0; step < 60 && !line.back().game_over(); ++step) {
        if (random_step(line, rng, 3, 12, {&lazy})) {
          ++unevaluated;
        } else {
          unevaluated = std::max(0, unevaluated - 1);
          lowest_since = std::min(lowest_since, int(line.size()));
        }
        if (rng.uniform(4) != 0) continue;  // most plies are never evaluated
        const Position& now = line.back();
        fresh.set_root(now);
        ASSERT_EQ(lazy.evaluate(now, scan_leaf_moves(now)), fresh.evaluate(now, scan_leaf_moves(now)))
            << "step " << step << ", " << unevaluated << " plies unevaluated, simd " << simd;
        ASSERT_EQ(lazy.evaluate_floor(now), fresh.evaluate_floor(now));
        caught_up_three += unevaluated >= 3;
        after_deep_pops += lowest_since < evaluated_length && int(line.size()) > lowest_since;
        unevaluated = 0;
        evaluated_length = lowest_since = int(line.size());
        ++checked;
      }
    }
    EXPECT_GT(checked, 150);
    EXPECT_GT(caught_up_three, 20) << "evaluations after three or more unevaluated pushes";
    EXPECT_GT(after_deep_pops, 10) << "evaluations after popping below the evaluated ply and pushing again";
  }
}

// Every SIMD path the CPU has (AVX2, AVX-512) computes the scalar path's
// integers, at a root and after incremental pushes.
TEST(NnueEvaluator, SimdAndScalarPathsAgree) {
  const nnue::Network model = random_model(64, 16, 16, 9);
  nnue::Evaluator scalar(model, false);
  int checked = 0;
  for (nnue::kernels::Isa isa : {nnue::kernels::Isa::kAvx2, nnue::kernels::Isa::kAvx512}) {
    if (int(isa) > int(nnue::kernels::best_isa())) continue;
    nnue::Evaluator simd(model, isa);
    for (const Position& p : playout_positions(60, 4)) {
      simd.set_root(p);
      scalar.set_root(p);
      ASSERT_EQ(simd.evaluate(p, scan_leaf_moves(p)), scalar.evaluate(p, scan_leaf_moves(p)));
      MoveList list;
      generate_moves(p, list);
      for (int k = 0; k < list.size && k < 6; ++k) {
        Position child = p;
        child.apply(list[k]);
        simd.push(p, list[k]);
        scalar.push(p, list[k]);
        ASSERT_EQ(simd.evaluate(child, scan_leaf_moves(child)), scalar.evaluate(child, scan_leaf_moves(child)))
            << nnue::kernels::isa_name(isa);
        simd.pop();
        scalar.pop();
        ++checked;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "this CPU has no AVX2";
}

// Compact rows (int8, chosen when every transformer weight fits) give the
// int16 rows' evaluations exactly, on every path the CPU has, through
// pushes, pops and plies left unevaluated; a weight past int8 keeps the
// rows int16.
TEST(NnueEvaluator, CompactRowsEvaluateExactlyAsInt16Rows) {
  using Rows = nnue::Evaluator::FeatureRows;
  nnue::Network model = random_model(64, 16, 16, 31);
  for (float& w : model.ft_weight) w *= 30;  // up to +-0.9: rounds to +-114 of int8's +-127
  int checked = 0;
  for (nnue::kernels::Isa isa : {nnue::kernels::Isa::kScalar, nnue::kernels::Isa::kAvx2, nnue::kernels::Isa::kAvx512}) {
    if (int(isa) > int(nnue::kernels::best_isa())) continue;
    nnue::Evaluator compact(model, isa), wide(model, isa, Rows::kInt16);
    ASSERT_TRUE(compact.compact_rows());
    ASSERT_FALSE(wide.compact_rows());
    Rng rng(37);
    for (const Position& root : playout_positions(12, 17)) {
      compact.set_root(root);
      wide.set_root(root);
      std::vector<Position> line = {root};
      for (int step = 0; step < 40 && !line.back().game_over(); ++step) {
        random_step(line, rng, 3, 0, {&compact, &wide});
        if (rng.uniform(2) != 0) continue;
        const Position& now = line.back();
        ASSERT_EQ(compact.evaluate(now, scan_leaf_moves(now)), wide.evaluate(now, scan_leaf_moves(now)))
            << nnue::kernels::isa_name(isa) << ", step " << step;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);

  model.ft_weight[12345] = 1.5f;  // 191 after rounding: past int8
  EXPECT_FALSE(nnue::Evaluator(model, nnue::kernels::Isa::kScalar).compact_rows());
  model.ft_weight[12345] = -128.0f / nnue::kFtScale;  // int8's lowest still fits
  EXPECT_TRUE(nnue::Evaluator(model, nnue::kernels::Isa::kScalar).compact_rows());
}

// Quantization: the integer runtime against the float model, on random
// weights spread over the runtime's ranges (harsher than trained weights:
// dense weights up to 1.5 amplify every rounding). Each transformer weight
// is rounded to 1/127 (456 of them summed per unit), each activation to
// 1/127 and each dense weight to 1/64; through 16 + 16 units with weights
// near 1 those steps can line up to most of a cell. The measured mean is
// 2.8 units (0.18 cells) and the worst 13.3 units (0.83 cells), while the
// net moves the evaluation by up to 11 cells; the bounds are 3.5 units mean
// and 16 worst. Trained weights stay far closer (EvalNet's parity test).
TEST(NnueEvaluator, IntegerRuntimeStaysNearTheFloatModel) {
  const nnue::Network model = random_model(64, 16, 16, 13);
  nnue::Evaluator learned(model);
  double worst = 0, spread = 0, total = 0;
  const auto positions = playout_positions(200, 6);
  for (const Position& p : positions) {
    learned.set_root(p);
    const double reference = 16.0 * nnue::reference_output(model, p, scan_leaf_moves(p));
    const double error = std::fabs(learned.evaluate(p, scan_leaf_moves(p)) - reference);
    worst = std::max(worst, error);
    total += error;
    spread = std::max(spread, std::fabs(reference - 16.0 * p.margin_for_side_to_move()));
  }
  std::printf("|integer - float|: mean %.2f, worst %.2f units (1/16 cells); the net moves the evaluation by up to "
              "%.1f units\n", total / double(positions.size()), worst, spread);
  EXPECT_LE(total / double(positions.size()), 3.5);
  EXPECT_LE(worst, 16.0);
  EXPECT_GT(spread, 8.0);  // the check is not vacuous: the net's part is far from zero
}

// Stack k of a bucketed model as a model without buckets.
nnue::Network stack_model(const nnue::Network& model, int k) {
  nnue::Network m = nnue::Network::hand_equivalent({model.shape.hidden, model.shape.l1, model.shape.l2});
  m.ft_weight = model.ft_weight;
  m.ft_bias = model.ft_bias;
  m.skip_margin = model.skip_margin;
  m.skip_gain = model.skip_gain;
  const auto copy_stack = [&](const std::vector<float>& from, std::vector<float>& to) {
    std::copy(from.begin() + long(size_t(k) * to.size()), from.begin() + long(size_t(k + 1) * to.size()), to.begin());
  };
  copy_stack(model.l1_weight, m.l1_weight);
  copy_stack(model.l1_bias, m.l1_bias);
  copy_stack(model.l2_weight, m.l2_weight);
  copy_stack(model.l2_bias, m.l2_bias);
  copy_stack(model.out_weight, m.out_weight);
  copy_stack(model.out_bias, m.out_bias);
  return m;
}

// Buckets: each position runs the dense stack of its phase and seat, in
// the integer runtime (both paths) as in the float model.
TEST(NnueEvaluator, BucketsPickTheStackOfThePhaseAndSeat) {
  // Four bands of 28 mushrooms taken: 170..143 left, 142..115, 114..87, and 86 or fewer.
  const nnue::Shape four_by_two{32, 16, 8, 4, 2}, four{32, 16, 8, 4, 1}, none{32, 16, 8};
  EXPECT_EQ(four_by_two.bucket(170, true), 0);
  EXPECT_EQ(four_by_two.bucket(170, false), 4);
  EXPECT_EQ(four_by_two.bucket(143, true), 0);
  EXPECT_EQ(four_by_two.bucket(142, true), 1);
  EXPECT_EQ(four_by_two.bucket(87, false), 6);
  EXPECT_EQ(four_by_two.bucket(86, false), 7);
  EXPECT_EQ(four_by_two.bucket(0, true), 3);
  EXPECT_EQ(four.bucket(100, false), 2);
  EXPECT_EQ(none.bucket(100, false), 0);
  const nnue::Network model = random_model(32, 16, 8, 23, 4, 2);
  nnue::Evaluator simd(model, true), scalar(model, false);
  double worst = 0;
  std::set<int> buckets_seen;
  int differs = 0, positions = 0;
  for (const Position& p : playout_positions(120, 31)) {
    const LeafMoves scan = scan_leaf_moves(p);
    const int k = model.shape.bucket(p.mushrooms_left(), p.to_move() == kFirst);
    buckets_seen.insert(k);
    simd.set_root(p);
    scalar.set_root(p);
    const int value = simd.evaluate(p, scan);
    ASSERT_EQ(value, scalar.evaluate(p, scan));
    const float reference = nnue::reference_output(model, p, scan);
    worst = std::max(worst, std::fabs(value - 16.0 * reference));
    nnue::Evaluator own_stack(stack_model(model, k));
    own_stack.set_root(p);
    ASSERT_EQ(own_stack.evaluate(p, scan), value) << "bucket " << k;
    differs += nnue::reference_output(stack_model(model, (k + 1) % model.shape.stacks()), p, scan) != reference;
    ++positions;
  }
  EXPECT_LE(worst, 16.0);
  EXPECT_GE(buckets_seen.size(), 4u);  // playouts reach several phases and both seats
  EXPECT_GT(differs, positions * 9 / 10);
}

// Mobility inputs: the net reads the leaf's count of legal rectangles, the
// same in the integer runtime (both paths) as in the float model, and the
// search gets no floor from it (the count is not known before the scan).
TEST(NnueEvaluator, MobilityInputsReadTheLeafsRectangleCount) {
  bool on[nnue::kMobilityInputs];
  nnue::mobility_inputs(0, true, on);
  EXPECT_EQ(std::count(on, on + nnue::kMobilityInputs, true), 0);
  nnue::mobility_inputs(4, true, on);  // n >= 1, 2, 3, even
  EXPECT_EQ(std::vector<bool>(on, on + nnue::kMobilityInputs),
            std::vector<bool>({true, true, true, false, false, false, false, false, false}));
  nnue::mobility_inputs(65, true, on);  // every step, odd
  EXPECT_EQ(std::count(on, on + nnue::kMobilityInputs, true), nnue::kMobilityInputs);

  nnue::Network model = random_model(32, 16, 8, 29, 1, 1, true);
  EXPECT_EQ(model.shape.dense_inputs(), 2 * 32 + nnue::kFlagInputs + nnue::kMobilityInputs);
  nnue::Evaluator simd(model, true), scalar(model, false);
  double worst = 0;
  int moved = 0, positions = 0;
  for (const Position& p : playout_positions(80, 37)) {
    const LeafMoves scan = scan_leaf_moves(p);
    simd.set_root(p);
    scalar.set_root(p);
    EXPECT_EQ(simd.evaluate_floor(p), StaticEvaluator::kNoFloor);
    const int value = simd.evaluate(p, scan);
    ASSERT_EQ(value, scalar.evaluate(p, scan));
    worst = std::max(worst, std::fabs(value - 16.0 * nnue::reference_output(model, p, scan)));
    // Another count (a fresh evaluator: the first caches its node's output).
    nnue::Evaluator again(model);
    again.set_root(p);
    moved += again.evaluate(p, {scan.best_gain, scan.rectangles + 17}) != value;
    ++positions;
  }
  EXPECT_LE(worst, 16.0);
  EXPECT_GT(moved, positions / 2);
}

class NnueNetworkFileTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& bytes) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() / ("nnue_network_test_" + name);
    std::ofstream(path, std::ios::binary) << bytes;
    paths_.push_back(path);
    return path.string();
  }
  void TearDown() override {
    for (const auto& p : paths_) std::filesystem::remove(p);
  }
  static void expect_error(const std::string& path, const std::string& words) {
    try {
      nnue::read_network(path);
      ADD_FAILURE() << "no error for " << path;
    } catch (const nnue::NetworkError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
  std::vector<std::filesystem::path> paths_;
};

TEST_F(NnueNetworkFileTest, RoundTripsAndNamesEveryKindOfBadFile) {
  const nnue::Network model = random_model(32, 8, 4, 2);
  const std::string bytes = nnue::serialize_network(model);
  const nnue::Network back = nnue::read_network(write("good.bin", bytes));
  EXPECT_EQ(back.shape, model.shape);
  EXPECT_EQ(back.shape.hidden, 32);
  EXPECT_EQ(back.ft_weight, model.ft_weight);
  EXPECT_EQ(back.out_weight, model.out_weight);
  EXPECT_EQ(back.skip_gain, model.skip_gain);

  expect_error(write("short.bin", bytes.substr(0, bytes.size() - 100)), "truncated, or another architecture");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  expect_error(write("flipped.bin", flipped), "checksum mismatch");
  expect_error(write("model.h5", "\x89HDF\r\n\x1a\n and more bytes than a header"), "no MSHEVAL2, MSHEVAL3 or MSHEVAL4 magic");
  std::string old = bytes;
  old[7] = '1';  // the first format, cell features only
  expect_error(write("old.bin", old), "an MSHEVAL1 evaluation (cell features only)");
  std::string odd = bytes;
  odd[8] = 40;  // H = 40 is not a multiple of 16
  expect_error(write("odd.bin", odd), "is not one this build runs");
  nnue::Network loud = model;
  loud.l2_weight[3] = 2.5f;
  expect_error(write("loud.bin", nnue::serialize_network(loud)), "l2.weight");
  nnue::Network huge = model;
  for (float& w : huge.ft_weight) w = 2.0f;
  expect_error(write("huge.bin", nnue::serialize_network(huge)), "int16 accumulator");
  expect_error("/nonexistent/eval.bin", "cannot open");

  // With buckets the file is MSHEVAL3, and its stacks round-trip.
  const nnue::Network bucketed = random_model(32, 8, 4, 3, 3, 2);
  const std::string bucket_bytes = nnue::serialize_network(bucketed);
  EXPECT_EQ(bucket_bytes.substr(0, 8), "MSHEVAL3");
  EXPECT_EQ(bytes.substr(0, 8), "MSHEVAL2");  // a model without buckets keeps the format the bot has shipped
  const nnue::Network bucketed_back = nnue::read_network(write("buckets.bin", bucket_bytes));
  EXPECT_EQ(bucketed_back.shape.phase_buckets, 3);
  EXPECT_EQ(bucketed_back.shape.seat_buckets, 2);
  EXPECT_EQ(bucketed_back.l1_weight, bucketed.l1_weight);
  EXPECT_EQ(bucketed_back.out_bias, bucketed.out_bias);
  std::string many = bucket_bytes;
  many[20] = 9;  // phase_buckets = 9
  expect_error(write("many.bin", many), "phase buckets");
  expect_error(write("cut.bin", bucket_bytes.substr(0, bucket_bytes.size() - 8)), "truncated, or another architecture");

  // With mobility inputs the file is MSHEVAL4, with or without buckets.
  for (const int phases : {1, 2}) {
    const nnue::Network mobile = random_model(32, 8, 4, 5, phases, 1, true);
    const std::string mobile_bytes = nnue::serialize_network(mobile);
    EXPECT_EQ(mobile_bytes.substr(0, 8), "MSHEVAL4");
    const nnue::Network mobile_back = nnue::read_network(write("mobile.bin", mobile_bytes));
    EXPECT_TRUE(mobile_back.shape.mobility);
    EXPECT_EQ(mobile_back.shape.phase_buckets, phases);
    EXPECT_EQ(mobile_back.l1_weight, mobile.l1_weight);
    EXPECT_EQ(mobile_back.shape, mobile.shape);
    EXPECT_NE(mobile_back.shape, model.shape);
    std::string other = mobile_bytes;
    other[28] = 5;  // 5 mobility inputs, not nnue::kMobilityInputs
    expect_error(write("other.bin", other), "5 mobility inputs");
  }

  // MSHEVAL5 was issue 100's window features, rejected and removed: such
  // a file is refused by name, whatever follows its magic.
  std::string windows = bytes;
  windows[7] = '5';
  expect_error(write("windows.bin", windows), "an MSHEVAL5 file, an evaluation with window features (issue 100)");
  expect_error(write("magic-only.bin", "MSHEVAL5"), "an MSHEVAL5 file");
  // MSHEVAL4 always has its mobility inputs: 0 of them is refused there.
  std::string no_mobility = nnue::serialize_network(random_model(32, 8, 4, 5, 1, 1, true));
  no_mobility[28] = 0;
  expect_error(write("no-mobility.bin", no_mobility), "0 mobility inputs, where this build runs 9");
}

// What the integer runtime's scales leave open is bounded too (issue 101's
// fuzzing): a dense bias that overflows the int32 sums, and a net whose
// evaluations leave the search's range (skip weights of 9 give 170 * 9 =
// 1,530 cells; the search's infinity is 1,875), are refused naming the
// tensor or the stack. The shipped evaluation still reads.
TEST_F(NnueNetworkFileTest, NetsBeyondTheRuntimesSumsOrTheSearchsRangeAreRefused) {
  const nnue::Network model = random_model(32, 8, 4, 2, 2, 1);
  nnue::Network bias = model;
  bias.l2_bias[5] = -3e5f;
  expect_error(write("bias.bin", nnue::serialize_network(bias)), "tensor l2.bias holds -300000");
  nnue::Network skips = model;
  skips.skip_margin = 9.0f;
  expect_error(write("skips.bin", nnue::serialize_network(skips)), "dense stack 0 can evaluate a position at");
  nnue::Network out = model;
  out.out_bias[1] = 1600.0f;
  expect_error(write("out.bin", nnue::serialize_network(out)), "dense stack 1 can evaluate a position at");
  EXPECT_NO_THROW(nnue::read_network("models/eval.bin"));
  // The accumulator's bound counts the rows as the runtime adds them,
  // rounded to 1/127: 456 rows of 40.6/127 round to 41 each (18,696, where
  // the floats sum to 18,513.6), so with a bias of 14,100/127 the floats
  // fit (32,613.6) and the runtime's int16 would not (32,796).
  nnue::Network rounding = model;
  std::fill(rounding.ft_weight.begin(), rounding.ft_weight.end(), 40.6f / nnue::kFtScale);
  std::fill(rounding.ft_bias.begin(), rounding.ft_bias.end(), 14100.0f / nnue::kFtScale);
  expect_error(write("rounding.bin", nnue::serialize_network(rounding)),
               "transformer unit 0 can reach 32796 in the int16 accumulator");
  std::fill(rounding.ft_bias.begin(), rounding.ft_bias.end(), 14071.0f / nnue::kFtScale);  // 32,767 exactly
  EXPECT_NO_THROW(nnue::parse_network(nnue::serialize_network(rounding), "rounding"));
  // A header whose shape and buckets are both out of range is refused for
  // its buckets first: the shape's message multiplies them (2^26 x 2^25
  // overflowed an int).
  std::string both = nnue::serialize_network(model);
  both[8] = 40;  // H = 40
  const uint32_t phases = 1u << 26, seats = 1u << 25;
  std::memcpy(both.data() + 20, &phases, 4);
  std::memcpy(both.data() + 24, &seats, 4);
  expect_error(write("both.bin", both), "67108864 phase buckets and 33554432 seat buckets");
  EXPECT_NO_THROW(nnue::read_network(write("hand.bin", nnue::serialize_network(nnue::Network::hand_equivalent(model.shape)))));
}

}  // namespace
}  // namespace mushroom
