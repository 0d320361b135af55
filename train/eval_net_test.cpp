#include "train/eval_net.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "mushroom/learned_evaluator.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "train/eval_pipeline.h"
#include "train/eval_trainer.h"
#include "train/run_config.h"
#include "train/run_dir.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

// Starting weights pushed well away from the hand evaluation, so the net's
// part of the output is large.
LearnedEvalModel lively_model(uint64_t seed, int phase_buckets = 1, int seat_buckets = 1, bool mobility = false) {
  EvalNetConfig c;
  c.hidden = 32;
  c.l1 = 8;
  c.l2 = 8;
  c.phase_buckets = phase_buckets;
  c.seat_buckets = seat_buckets;
  c.mobility = mobility;
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
void expect_runtime_matches_torch(const LearnedEvalModel& model) {
  EvalNet net(model);
  const std::vector<Position> positions = playout_positions(300, 19);
  torch::NoGradGuard no_grad;
  const torch::Tensor out = net->forward(eval_inputs(positions));
  LearnedEvaluator runtime(model);
  double worst_float = 0, worst_int = 0, sum_int = 0, spread = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    const double torch_cells = out[int64_t(i)].item<double>();
    worst_float = std::max(worst_float, std::fabs(torch_cells - LearnedEvaluator::reference_output(model, p, scan_leaf_moves(p))));
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
  LearnedEvalModel model = lively_model(4, 4, 2);
  Rng rng(9);
  for (float& w : model.out_weight) w = float(1.5 * (2 * rng.uniform_double() - 1));  // stacks that differ
  for (float& b : model.out_bias) b = float(2 * rng.uniform_double() - 1);
  expect_runtime_matches_torch(model);
  EvalNet net(model);
  const std::vector<Position> positions = playout_positions(100, 23);
  const torch::Tensor k = net->buckets(eval_inputs(positions));
  for (size_t i = 0; i < positions.size(); ++i)
    ASSERT_EQ(k[int64_t(i)].item<int64_t>(),
              model.bucket(positions[i].mushrooms_left(), positions[i].to_move() == kFirst));
}

// With mobility inputs the module reads the same rectangle count as the
// runtimes, and the weights keep them through the file.
TEST(EvalNet, TheIntegerRuntimeMatchesTheLibTorchModelWithMobilityInputs) {
  LearnedEvalModel model = lively_model(6, 2, 1, true);
  Rng rng(11);
  // Loud weights on the mobility inputs, so a count read wrongly shows.
  for (int j = 0; j < model.stacks() * model.l1; ++j)
    for (int i = 2 * model.hidden + kEvalFlags; i < model.dense_inputs(); ++i)
      model.l1_weight[size_t(j) * model.dense_inputs() + i] = float(1.5 * (2 * rng.uniform_double() - 1));
  expect_runtime_matches_torch(model);
  EvalNet net(model);
  const LearnedEvalModel back = parse_learned_eval(serialize_learned_eval(net->to_model()), "round trip");
  EXPECT_TRUE(back.mobility);
  EXPECT_EQ(back.l1_weight, model.l1_weight);
}

TEST(EvalNet, WeightsRoundTripThroughTheFileAndTheModule) {
  const LearnedEvalModel model = lively_model(5, 3, 2);
  EvalNet net(model);
  const LearnedEvalModel back =
      parse_learned_eval(serialize_learned_eval(net->to_model()), "round trip");
  EXPECT_EQ(back.ft_weight, model.ft_weight);
  EXPECT_EQ(back.l1_weight, model.l1_weight);
  EXPECT_EQ(back.out_weight, model.out_weight);
  EXPECT_EQ(back.out_bias, model.out_bias);
  EXPECT_EQ(back.l2_weight, model.l2_weight);
  EXPECT_EQ(back.skip_margin, model.skip_margin);
  EXPECT_EQ(back.phase_buckets, 3);
  EXPECT_EQ(back.seat_buckets, 2);
}

// Alpha-beta self-play at depth 2 into dir, read back as a packed window.
EvalWindow selfplay_window(const fs::path& dir, int games) {
  fs::remove_all(dir);
  selfplay::EvalSelfplayJob job;
  job.job.config.workers = 2;
  job.job.config.random_opening_plies = 10;
  job.job.out_dir = dir.string();
  job.job.games = games;
  job.eval.label_depth = 2;
  selfplay::run_eval_selfplay(job);
  return load_eval_window(find_shards(dir.string()), 100000, [](const std::string& w) { ADD_FAILURE() << w; }, 2);
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
  net.hidden = 32;
  net.l1 = 8;
  net.l2 = 8;
  net.search_weight = 0.5;  // half the target is the result, far from the starting (hand) evaluation
  EvalTrainer trainer(train, net, initial_eval_model(net, 1), 0, "");
  std::vector<int> all(window.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = int(i);
  const double before = trainer.loss_on(window.records, all);
  const EvalSampler sampler(window, filters);
  trainer.train(window, sampler, 300, 1, nullptr, 100);
  const double after = trainer.loss_on(window.records, all);
  std::printf("%s target, %d x %d buckets: loss on the training samples %.5f before, %.5f after 300 steps (%s)\n",
              net.target.c_str(), net.phase_buckets, net.seat_buckets, before, after, sampler.describe().c_str());
  EXPECT_LT(after, before * 0.9);
  const LearnedEvalModel trained = parse_learned_eval(serialize_learned_eval(trainer.model()), "trained");
  EXPECT_EQ(trained.stacks(), net.phase_buckets * net.seat_buckets);
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
  margin.phase_buckets = 4;
  margin.seat_buckets = 2;
  expect_training_lowers_the_loss(window, margin, {4, 6, true});
  fs::remove_all(dir);
}

// A run whose config changes the architecture between generations (runs
// resume with an edited config) trains the next generation from fresh
// weights of the new shape, and says so; an unchanged one goes on from the
// previous generation's weights.
TEST(EvalNet, ARunThatChangesTheArchitectureStartsThatGenerationAfresh) {
  const fs::path root = test_scratch_dir() / "eval_arch_change";
  fs::remove_all(root);
  const RunDir run{root, ".eval"};
  selfplay_window(run.data(1), 6);
  run.prepare();
  write_file_atomic(run.model(1).string(), serialize_learned_eval(lively_model(7)));  // H=32 L1=8 L2=8
  const RunConfig config = parse_run_config(
      "[run]\nmodel = \"eval\"\n[evalnet]\nhidden = 16\nl1 = 8\nl2 = 8\nseat_buckets = 2\n[train]\nsteps = 5\n"
      "batch_size = 64\nthreads = 1\noptimizer = \"adam\"\n",
      "test.toml");
  std::vector<std::string> lines;
  const StageLog log = [&](const std::string& line) { lines.push_back(line); };
  eval_pipeline(config).learn(run, 2, "", log);
  const LearnedEvalModel second = read_learned_eval(run.model(2).string());
  EXPECT_EQ(learned_eval_architecture(second), "H=16 L1=8 L2=8, 1 phase x 2 seat buckets");
  bool said = false;
  for (const std::string& l : lines) said = said || l.find("starts from fresh weights") != std::string::npos;
  EXPECT_TRUE(said);
  lines.clear();
  eval_pipeline(config).learn(run, 3, "", log);  // the same shape: it goes on
  for (const std::string& l : lines) EXPECT_EQ(l.find("fresh weights"), std::string::npos) << l;
  EXPECT_EQ(learned_eval_architecture(read_learned_eval(run.model(3).string())), "H=16 L1=8 L2=8, 1 phase x 2 seat buckets");
  // A model the user asked to start from (--init) is never swapped for fresh weights: another shape is an error.
  const RunDir other{root / "other", ".eval"};
  other.prepare();
  try {
    eval_pipeline(config).learn(other, 1, run.model(1).string(), log);
    ADD_FAILURE() << "an --init model of another architecture was not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the evaluation to train from is H=32 L1=8 L2=8 but [evalnet] asks for H=16"),
              std::string::npos)
        << e.what();
  }
  fs::remove_all(root);
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
