#include "mushroom/learned_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "mushroom/alphabeta.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "util/rng.h"

namespace mushroom {
namespace {

// Random weights inside the integer runtime's ranges: transformer rows of
// about +-0.05 (170 cells keep the accumulator near +-1), dense weights up
// to +-1.
LearnedEvalModel random_model(int hidden, int l1, int l2, uint64_t seed) {
  LearnedEvalModel m = LearnedEvalModel::hand_equivalent(hidden, l1, l2);
  Rng rng(seed);
  const auto fill = [&](std::vector<float>& v, double scale) {
    for (float& x : v) x = float(scale * (2 * rng.uniform_double() - 1));
  };
  fill(m.ft_weight, 0.05);
  fill(m.ft_bias, 0.5);
  fill(m.l1_weight, 0.5);
  fill(m.l1_bias, 0.3);
  fill(m.l2_weight, 1.0);
  fill(m.l2_bias, 0.3);
  fill(m.out_weight, 1.5);
  m.out_bias = 0.7f;
  m.skip_margin = 0.9f;
  m.skip_gain = 0.4f;
  return m;
}


// With zero weights and skips (1, 0.5) the learned evaluation is the hand
// evaluation exactly, so alpha-beta with it searches the same tree.
TEST(LearnedEvaluator, TheHandEquivalentModelIsTheHandEvaluationExactly) {
  LearnedEvaluator learned(LearnedEvalModel::hand_equivalent(32, 8, 8));
  for (const Position& p : playout_positions(40, 3)) {
    learned.set_root(p);
    ASSERT_EQ(learned.evaluate(p, best_margin_gain(p)), evaluate(p));
  }
  for (const Position& p : playout_positions(4, 8)) {
    const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
    const AlphaBetaResult hand = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}).search(p, far, 4);
    const AlphaBetaResult seam = AlphaBeta(AlphaBetaConfig{.tt_bits = 16}, &learned).search(p, far, 4);
    EXPECT_EQ(hand.best, seam.best);
    EXPECT_EQ(hand.score, seam.score);
    EXPECT_EQ(hand.nodes, seam.nodes);
  }
}

// The accumulators updated move by move (pushes, pops and passes along
// random lines) give the same evaluation as a fresh start from the position.
TEST(LearnedEvaluator, IncrementalUpdatesMatchAFreshStart) {
  const LearnedEvalModel model = random_model(32, 16, 8, 5);
  LearnedEvaluator incremental(model), fresh(model);
  Rng rng(17);
  int checked = 0;
  for (const Position& root : playout_positions(12, 21)) {
    incremental.set_root(root);
    std::vector<Position> line = {root};
    for (int step = 0; step < 40 && !line.back().game_over(); ++step) {
      if (line.size() > 1 && rng.uniform(4) == 0) {  // take one back now and then
        incremental.pop();
        line.pop_back();
      } else {
        MoveList list;
        const int n = generate_moves(line.back(), list);
        const Move m = n == 0 || rng.uniform(10) == 0 ? Move::pass() : list[rng.uniform(uint32_t(n))];
        incremental.push(line.back(), m);
        line.push_back(line.back());
        line.back().apply(m);
      }
      const Position& now = line.back();
      fresh.set_root(now);
      ASSERT_EQ(incremental.evaluate(now, best_margin_gain(now)), fresh.evaluate(now, best_margin_gain(now)));
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

// The AVX2 and scalar paths compute the same integers.
TEST(LearnedEvaluator, SimdAndScalarPathsAgree) {
  const LearnedEvalModel model = random_model(64, 16, 16, 9);
  LearnedEvaluator simd(model, true), scalar(model, false);
  if (!simd.uses_simd()) GTEST_SKIP() << "this CPU has no AVX2";
  for (const Position& p : playout_positions(60, 4)) {
    simd.set_root(p);
    scalar.set_root(p);
    ASSERT_EQ(simd.evaluate(p, best_margin_gain(p)), scalar.evaluate(p, best_margin_gain(p)));
  }
}

// Quantization: the integer runtime against the float model, on random
// weights spread over the runtime's ranges (harsher than trained weights:
// dense weights up to 1.5 amplify every rounding). Each activation is
// rounded to 1/127 and each dense weight to 1/64; through 16 + 16 units
// with weights near 1 those steps can line up to about half a cell. The
// measured mean is 1.3 units (0.08 cells) and the worst 10 units (0.63
// cells), while the net moves the evaluation by up to 12 cells; the bounds
// are 2 units mean and 12 units worst.
TEST(LearnedEvaluator, IntegerRuntimeStaysNearTheFloatModel) {
  const LearnedEvalModel model = random_model(64, 16, 16, 13);
  LearnedEvaluator learned(model);
  double worst = 0, spread = 0, total = 0;
  const auto positions = playout_positions(200, 6);
  for (const Position& p : positions) {
    learned.set_root(p);
    const double reference = 16.0 * LearnedEvaluator::reference_output(model, p, best_margin_gain(p));
    const double error = std::fabs(learned.evaluate(p, best_margin_gain(p)) - reference);
    worst = std::max(worst, error);
    total += error;
    spread = std::max(spread, std::fabs(reference - 16.0 * p.margin_for_side_to_move()));
  }
  std::printf("|integer - float|: mean %.2f, worst %.2f units (1/16 cells); the net moves the evaluation by up to "
              "%.1f units\n", total / double(positions.size()), worst, spread);
  EXPECT_LE(total / double(positions.size()), 2.0);
  EXPECT_LE(worst, 12.0);
  EXPECT_GT(spread, 8.0);  // the check is not vacuous: the net's part is far from zero
}

class LearnedEvalFileTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& bytes) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() / ("learned_eval_test_" + name);
    std::ofstream(path, std::ios::binary) << bytes;
    paths_.push_back(path);
    return path.string();
  }
  void TearDown() override {
    for (const auto& p : paths_) std::filesystem::remove(p);
  }
  static void expect_error(const std::string& path, const std::string& words) {
    try {
      read_learned_eval(path);
      ADD_FAILURE() << "no error for " << path;
    } catch (const LearnedEvalError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
  std::vector<std::filesystem::path> paths_;
};

TEST_F(LearnedEvalFileTest, RoundTripsAndNamesEveryKindOfBadFile) {
  const LearnedEvalModel model = random_model(32, 8, 4, 2);
  const std::string bytes = serialize_learned_eval(model);
  const LearnedEvalModel back = read_learned_eval(write("good.bin", bytes));
  EXPECT_EQ(back.hidden, 32);
  EXPECT_EQ(back.ft_weight, model.ft_weight);
  EXPECT_EQ(back.out_weight, model.out_weight);
  EXPECT_EQ(back.skip_gain, model.skip_gain);

  expect_error(write("short.bin", bytes.substr(0, bytes.size() - 100)), "truncated, or another architecture");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  expect_error(write("flipped.bin", flipped), "checksum mismatch");
  expect_error(write("model.h5", "\x89HDF\r\n\x1a\n and more bytes than a header"), "no MSHEVAL1 magic");
  std::string odd = bytes;
  odd[8] = 40;  // H = 40 is not a multiple of 16
  expect_error(write("odd.bin", odd), "is not one this build runs");
  LearnedEvalModel loud = model;
  loud.l2_weight[3] = 2.5f;
  expect_error(write("loud.bin", serialize_learned_eval(loud)), "l2.weight");
  LearnedEvalModel huge = model;
  for (float& w : huge.ft_weight) w = 2.0f;
  expect_error(write("huge.bin", serialize_learned_eval(huge)), "int16 accumulator");
  expect_error("/nonexistent/eval.bin", "cannot open");
}

}  // namespace
}  // namespace mushroom
