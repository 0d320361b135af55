#include "train/nnue/eval_net.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "nnue/evaluator.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "train/nnue/eval_test_util.h"
#include "train/nnue/eval_trainer.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

// The LibTorch module computes what the C++ float reference computes, and
// the integer runtime stays within the documented quantization tolerance of
// it: 3 units (3/16 cell) at worst and 1 unit on average on these 300
// positions; the measured figures are printed.
void expect_runtime_matches_torch(const nnue::Network& model) {
  EvalNet net(model);
  const std::vector<Position> positions = playout_positions(300, 19);
  torch::NoGradGuard no_grad;
  const torch::Tensor out = net->forward(eval_inputs(positions));
  nnue::Evaluator runtime(model);
  double worst_float = 0, worst_int = 0, sum_int = 0, spread = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    const double torch_cells = out[int64_t(i)].item<double>();
    worst_float = std::max(worst_float, std::fabs(torch_cells - nnue::reference_output(model, p, scan_leaf_moves(p))));
    runtime.set_root(p);
    const double error = std::fabs(runtime.evaluate(p, scan_leaf_moves(p)) - 16 * torch_cells);
    worst_int = std::max(worst_int, error);
    sum_int += error;
    spread = std::max(spread, std::fabs(torch_cells - (p.margin_for_side_to_move() + 0.5 * best_margin_gain(p))));
  }
  std::printf("LibTorch vs float reference: worst %.2e cells; integer runtime vs LibTorch: mean %.2f, worst %.2f "
              "units (1/16 cell); the net's part reaches %.1f cells\n",
              worst_float, sum_int / double(positions.size()), worst_int, spread);
  EXPECT_LT(worst_float, 1e-3);
  EXPECT_LE(worst_int, 3.0);
  EXPECT_LE(sum_int / double(positions.size()), 1.0);
  EXPECT_GT(spread, 0.5);  // the net's part is not negligible
}

TEST(EvalNet, TheIntegerRuntimeMatchesTheLibTorchModel) { expect_runtime_matches_torch(lively_model(3)); }

// With phase and seat buckets, each position's stack is the same in the
// module as in the runtimes.
TEST(EvalNet, TheIntegerRuntimeMatchesTheLibTorchModelWithBuckets) {
  nnue::Network model = lively_model(4, 4, 2);
  Rng rng(9);
  for (float& w : model.out_weight) w = float(1.5 * (2 * rng.uniform_double() - 1));  // stacks that differ
  for (float& b : model.out_bias) b = float(2 * rng.uniform_double() - 1);
  expect_runtime_matches_torch(model);
  EvalNet net(model);
  const std::vector<Position> positions = playout_positions(100, 23);
  const torch::Tensor k = net->buckets(eval_inputs(positions));
  for (size_t i = 0; i < positions.size(); ++i)
    ASSERT_EQ(k[int64_t(i)].item<int64_t>(),
              model.shape.bucket(positions[i].mushrooms_left(), positions[i].to_move() == kFirst));
}

// With mobility inputs the module reads the same rectangle count as the
// runtimes, and the weights keep them through the file.
TEST(EvalNet, TheIntegerRuntimeMatchesTheLibTorchModelWithMobilityInputs) {
  nnue::Network model = lively_model(6, 2, 1, true);
  Rng rng(11);
  // Loud weights on the mobility inputs, so a count read wrongly shows.
  const nnue::Shape& shape = model.shape;
  for (int j = 0; j < shape.stacks() * shape.l1; ++j)
    for (int i = 2 * shape.hidden + nnue::kFlagInputs; i < shape.dense_inputs(); ++i)
      model.l1_weight[size_t(j) * shape.dense_inputs() + i] = float(1.5 * (2 * rng.uniform_double() - 1));
  expect_runtime_matches_torch(model);
  EvalNet net(model);
  const nnue::Network back = nnue::parse_network(nnue::serialize_network(net->to_model()), "round trip");
  EXPECT_EQ(back.shape, model.shape);
  EXPECT_TRUE(back.shape.mobility);
  EXPECT_EQ(back.l1_weight, model.l1_weight);
}

TEST(EvalNet, WeightsRoundTripThroughTheFileAndTheModule) {
  const nnue::Network model = lively_model(5, 3, 2);
  EvalNet net(model);
  const nnue::Network back =
      nnue::parse_network(nnue::serialize_network(net->to_model()), "round trip");
  EXPECT_EQ(back.ft_weight, model.ft_weight);
  EXPECT_EQ(back.l1_weight, model.l1_weight);
  EXPECT_EQ(back.out_weight, model.out_weight);
  EXPECT_EQ(back.out_bias, model.out_bias);
  EXPECT_EQ(back.l2_weight, model.l2_weight);
  EXPECT_EQ(back.skip_margin, model.skip_margin);
  EXPECT_EQ(back.shape.phase_buckets, 3);
  EXPECT_EQ(back.shape.seat_buckets, 2);
}

// A short training on alpha-beta self-play lowers the loss on the samples it
// trained on, and every weight stays inside the runtime's ranges (the file
// loads): for each target, with and without buckets and filters.
void expect_training_lowers_the_loss(const EvalWindow& window, EvalNetConfig net, const EvalFilters& filters) {
  TrainConfig train;
  train.optimizer = "adam";
  train.learning_rate = 3e-3;
  train.batch_size = 128;
  train.threads = 1;
  net.shape.hidden = 32;
  net.shape.l1 = 8;
  net.shape.l2 = 8;
  net.search_weight = 0.5;  // half the target is the result, far from the starting (hand) evaluation
  EvalTrainer trainer(train, net, initial_eval_model(net, 1), 0, "");
  std::vector<int> all(window.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = int(i);
  const double before = trainer.loss_on(window.records, all);
  const EvalSampler sampler(window, filters);
  trainer.train(window, sampler, 300, 1, nullptr, 100);
  const double after = trainer.loss_on(window.records, all);
  std::printf("%s target, %d x %d buckets: loss on the training samples %.5f before, %.5f after 300 steps (%s)\n",
              net.target.c_str(), net.shape.phase_buckets, net.shape.seat_buckets, before, after, sampler.describe().c_str());
  EXPECT_LT(after, before * 0.9);
  const nnue::Network trained = nnue::parse_network(nnue::serialize_network(trainer.model()), "trained");
  EXPECT_EQ(trained.shape, net.shape);
}

TEST(EvalNet, TrainingLowersTheLossAndKeepsTheRuntimeRanges) {
  const fs::path dir = test_scratch_dir() / "eval_net_test";
  const EvalWindow window = selfplay_window(dir, 16);
  ASSERT_GT(window.size(), 500u);
  EvalNetConfig probability;
  expect_training_lowers_the_loss(window, probability, {});
  EvalNetConfig margin;
  margin.target = "margin";
  margin.huber_delta = 2;
  margin.shape.phase_buckets = 4;
  margin.shape.seat_buckets = 2;
  expect_training_lowers_the_loss(window, margin, {4, 6, true});
  fs::remove_all(dir);
}

// evalnet.ema_decay: the candidate is the running average of the weights
// after each step, d = min(decay, (1 + step) / (10 + step)), computed here
// from the same trajectory taken one step at a time (a constant rate, so
// three one-step calls draw the same batches and take the same steps as one
// three-step call), and it is not the last step's weights. The trainers
// start as a later generation's do (samples already seen): the ramp counts
// the steps of this train() call, not the model's life.
TEST(EvalNet, EmaDecayMakesTheCandidateTheRunningAverageOfTheSteps) {
  const fs::path dir = test_scratch_dir() / "eval_net_ema_test";
  const EvalWindow window = selfplay_window(dir, 8);
  ASSERT_GT(window.size(), 100u);
  TrainConfig train;
  train.optimizer = "adam";
  train.learning_rate = 3e-2;  // big steps, so the average and the last weights are far apart
  train.batch_size = 64;
  train.threads = 1;
  train.lr_schedule = "constant";  // the same rate in a one-step call as in the three-step one
  train.warmup_steps = 0;
  EvalNetConfig net;
  net.shape.hidden = 32;
  net.shape.l1 = 8;
  net.shape.l2 = 8;
  const nnue::Network start = initial_eval_model(net, 3);
  const EvalSampler sampler(window, {});
  constexpr int kSteps = 3;
  constexpr double kDecay = 0.2;  // the ramp gives 0.1, 0.18 and then 0.2

  std::vector<nnue::Network> steps;  // the plain trajectory, one step a call
  constexpr int64_t kSeen = 64 * 500;  // both trainers seed their batches from it, so they draw the same ones
  EvalTrainer plain(train, net, start, kSeen, "");
  for (int i = 0; i < kSteps; ++i) {
    plain.train(window, sampler, 1, 1, nullptr, 1);
    steps.push_back(plain.model());
  }
  net.ema_decay = kDecay;
  EvalTrainer averaged(train, net, start, kSeen, "");
  averaged.train(window, sampler, kSteps, 1, nullptr, 1);
  const nnue::Network candidate = averaged.model();

  // Every trained parameter, the two skip weights included.
  const auto fields = [](const nnue::Network& m) {
    return std::vector<std::vector<float>>{m.ft_weight, m.ft_bias,    m.l1_weight, m.l1_bias,
                                           m.l2_weight, m.l2_bias,    m.out_weight, m.out_bias,
                                           {m.skip_margin, m.skip_gain}};
  };
  const std::vector<std::vector<float>> first = fields(start), got = fields(candidate);
  std::vector<std::vector<std::vector<float>>> trajectory;
  for (const nnue::Network& m : steps) trajectory.push_back(fields(m));
  double worst = 0, apart_from_last = 0;
  for (size_t f = 0; f < first.size(); ++f) {
    for (size_t i = 0; i < first[f].size(); ++i) {
      double expected = first[f][i];
      for (int step = 0; step < kSteps; ++step) {
        const double d = std::min(kDecay, (1.0 + step) / (10.0 + step));
        expected = d * expected + (1 - d) * trajectory[size_t(step)][f][i];
      }
      worst = std::max(worst, std::abs(got[f][i] - expected));
      apart_from_last = std::max(apart_from_last, std::abs(double(got[f][i]) - trajectory.back()[f][i]));
    }
  }
  EXPECT_LT(worst, 1e-5);
  EXPECT_GT(apart_from_last, 1e-3) << "the average is the last step's weights: the test shows nothing";
  fs::remove_all(dir);
}

// The margin target is the Huber loss in cells of the blend of search score
// and final margin; the probability target is the squared error of win
// probabilities, with the teacher mixed in where there is one.
TEST(EvalNet, TheTargetsAreTheDocumentedLosses) {
  EvalBatch b = eval_inputs(playout_positions(2, 3));
  b.search = torch::tensor({4.0f, -2.0f});
  b.result = torch::tensor({10.0f, -2.0f});
  b.has_teacher = torch::tensor({0.0f, 1.0f});
  b.teacher = torch::tensor({0.0f, 0.5f});
  const torch::Tensor y = torch::tensor({1.0f, -2.5f});
  EvalNetConfig margin;
  margin.target = "margin";
  margin.search_weight = 0.5;
  margin.huber_delta = 2;
  // Targets 7 and -2: errors 6 (linear: 2 * (6 - 1) = 10) and 0.5 (quadratic: 0.125).
  EXPECT_NEAR(eval_loss(y, b, margin).item<double>(), (10 + 0.125) / 2, 1e-5);
  EvalNetConfig probability;
  probability.search_weight = 0.5;
  probability.teacher_weight = 0.4;
  probability.scale = 4;
  const auto sig = [](double x) { return 1 / (1 + std::exp(-x)); };
  const double t0 = 0.5 * sig(1.0) + 0.5 * sig(2.5);
  const double t1 = 0.6 * (0.5 * sig(-0.5) + 0.5 * sig(-0.5)) + 0.4 * 0.75;
  const double expected = (std::pow(sig(0.25) - t0, 2) + std::pow(sig(-2.5 / 4) - t1, 2)) / 2;
  EXPECT_NEAR(eval_loss(y, b, probability).item<double>(), expected, 1e-6);
}

}  // namespace
}  // namespace mushroom::train
