#include "train/eval_net.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "mushroom/learned_evaluator.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "train/eval_trainer.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

// Starting weights pushed well away from the hand evaluation, so the net's
// part of the output is large.
LearnedEvalModel lively_model(uint64_t seed) {
  EvalNetConfig c;
  c.hidden = 32;
  c.l1 = 8;
  c.l2 = 8;
  LearnedEvalModel m = initial_eval_model(c, seed);
  Rng rng(seed + 1);
  for (float& w : m.ft_weight) w *= 4;
  for (float& w : m.out_weight) w = float(1.5 * (2 * rng.uniform_double() - 1));
  return m;
}


// The LibTorch module computes what the C++ float reference computes, and
// the integer runtime stays within the documented quantization tolerance of
// it: 3 units (3/16 cell) at worst and 1 unit on average on these 300
// positions; the measured figures are printed.
TEST(EvalNet, TheIntegerRuntimeMatchesTheLibTorchModel) {
  const LearnedEvalModel model = lively_model(3);
  EvalNet net(model);
  const std::vector<Position> positions = playout_positions(300, 19);
  torch::NoGradGuard no_grad;
  const torch::Tensor out = net->forward(eval_inputs(positions));
  LearnedEvaluator runtime(model);
  double worst_float = 0, worst_int = 0, sum_int = 0, spread = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    const double torch_cells = out[int64_t(i)].item<double>();
    worst_float = std::max(worst_float, std::fabs(torch_cells - LearnedEvaluator::reference_output(model, p, best_margin_gain(p))));
    runtime.set_root(p);
    const double error = std::fabs(runtime.evaluate(p, best_margin_gain(p)) - 16 * torch_cells);
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

TEST(EvalNet, WeightsRoundTripThroughTheFileAndTheModule) {
  const LearnedEvalModel model = lively_model(5);
  EvalNet net(model);
  const LearnedEvalModel back =
      parse_learned_eval(serialize_learned_eval(net->to_model()), "round trip");
  EXPECT_EQ(back.ft_weight, model.ft_weight);
  EXPECT_EQ(back.l1_weight, model.l1_weight);
  EXPECT_EQ(back.out_weight, model.out_weight);
  EXPECT_EQ(back.skip_margin, model.skip_margin);
}

// A short training on alpha-beta self-play lowers the loss on the samples it
// trained on, and every weight stays inside the runtime's ranges (the file
// loads).
TEST(EvalNet, TrainingLowersTheLossAndKeepsTheRuntimeRanges) {
  const fs::path dir = fs::temp_directory_path() / ("eval_net_test_" + std::to_string(getpid()));
  fs::remove_all(dir);
  selfplay::EvalSelfplayJob job;
  job.job.config.workers = 2;
  job.job.config.random_opening_plies = 10;
  job.job.out_dir = dir.string();
  job.job.games = 16;
  job.eval.label_depth = 2;
  selfplay::run_eval_selfplay(job);
  TrainingWindow window =
      load_window(find_shards(dir.string()), 100000, [](const std::string& w) { ADD_FAILURE() << w; }, "mushroom-eval");
  ASSERT_GT(window.size(), 500u);
  TrainConfig train;
  train.optimizer = "adam";
  train.learning_rate = 3e-3;
  train.batch_size = 128;
  train.threads = 1;
  EvalNetConfig net;
  net.hidden = 32;
  net.l1 = 8;
  net.l2 = 8;
  net.search_weight = 0.5;  // half the target is the result, far from the starting (hand) evaluation
  EvalTrainer trainer(train, net, initial_eval_model(net, 1), 0, "");
  std::vector<int> all(window.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = int(i);
  const double before = trainer.loss_on(window.samples, all);
  trainer.train(window, 300, 1, nullptr, 100);
  const double after = trainer.loss_on(window.samples, all);
  std::printf("loss on the training samples: %.5f before, %.5f after 300 steps\n", before, after);
  EXPECT_LT(after, before * 0.9);
  EXPECT_NO_THROW(parse_learned_eval(serialize_learned_eval(trainer.model()), "trained"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::train
