#include "train/trainer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "mushroom/playout_positions.h"
#include "mushroom/mushroom_game.h"
#include "train/optimizer_state.h"
#include "util/scratch_folder_test_util.h"
#include "view/run_records.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

TrainingWindow tiny_window() {
  TrainingWindow window;
  for (const Position& p : playout_positions(8, 3)) {
    selfplay::Sample s = selfplay::sample_from_position(p);
    Move actions[MushroomGame::kMaxActions];
    MushroomGame::legal_actions(p, actions);
    s.policy = {{actions[0].index(), 1.0f}};
    s.outcome = 1;
    window.samples.push_back(s);
  }
  return window;
}

TrainConfig adam_config() {
  TrainConfig config;
  config.optimizer = "adam";
  config.learning_rate = 1e-3;
  config.batch_size = 4;
  config.threads = 1;
  return config;
}

fs::path scratch_file(const std::string& name) {
  static const ScratchFolder folder("trainer_test");
  return folder.dir() / name;
}

// The saved moments carry on: a second trainer loads them without a warning
// and trains on.
TEST(Trainer, OptimizerStateRoundTrips) {
  const fs::path path = scratch_file("roundtrip.pt");
  const nn::Model start = nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 1);
  Trainer first(adam_config(), start, path.string());
  first.train(tiny_window(), 2, 1, nullptr, 0);
  first.save_optimizer();
  ASSERT_TRUE(fs::exists(path));
  Trainer second(adam_config(), first.model({}), path.string());
  const TrainStats stats = second.train(tiny_window(), 2, 2, nullptr, 0);
  EXPECT_EQ(stats.steps, 2);
  EXPECT_TRUE(std::isfinite(stats.loss));
}

// A resumed optimizer takes the config's options, not the saved file's: a
// changed adam_eps or weight_decay applies from the next generation on.
TEST(Trainer, AResumedOptimizerTakesTheConfigsOptions) {
  const fs::path path = scratch_file("options.pt");
  torch::Tensor w = torch::zeros({3}, torch::requires_grad());
  TrainConfig old_config = adam_config();
  old_config.adam_eps = 1e-8;
  auto first = make_optimizer(old_config, {w});
  w.sum().backward();
  first->step();
  save_optimizer_state(*first, path.string());
  TrainConfig new_config = adam_config();
  new_config.adam_eps = 1e-5;
  new_config.weight_decay = 0.25;
  auto resumed = make_optimizer_with_state(new_config, {w}, path.string(), torch::kCPU);
  auto& options = static_cast<torch::optim::AdamOptions&>(resumed->param_groups()[0].options());
  EXPECT_DOUBLE_EQ(options.eps(), 1e-5);
  EXPECT_DOUBLE_EQ(options.weight_decay(), 0.25);
}

// State that does not fit the network (here: saved for another size, as a
// file from another LibTorch version can look) is dropped with a warning
// instead of failing the first step.
TEST(Trainer, MismatchedOptimizerStateStartsFresh) {
  const fs::path path = scratch_file("mismatch.pt");
  Trainer small(adam_config(), nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 1),
                path.string());
  small.train(tiny_window(), 1, 1, nullptr, 0);
  small.save_optimizer();
  Trainer wider(adam_config(), nn::random_model(nn::NetConfig{.blocks = 1, .channels = 12, .policy_dim = 4, .value_hidden = 8}, 2),
                path.string());
  TrainStats stats;
  EXPECT_NO_THROW(stats = wider.train(tiny_window(), 2, 2, nullptr, 0));
  EXPECT_EQ(stats.steps, 2);
  EXPECT_TRUE(std::isfinite(stats.loss));
}

// An unreadable file is reported and replaced by fresh state, never fatal.
// train.grad_clip bounds each step: plain SGD (no momentum, no decay) at
// rate 1 moves the weights by the clipped gradient, whose norm is the clip;
// the step's norm before clipping is what the stats and metrics record.
TEST(Trainer, TheGradientClipBoundsEachStepAndTheMetricsRecordTheNorm) {
  TrainConfig config;
  config.optimizer = "sgd";
  config.momentum = 0;
  config.weight_decay = 0;
  config.learning_rate = 1;
  config.batch_size = 4;
  config.threads = 1;
  config.grad_clip = 1e-3;
  const nn::Model start = nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 1);
  Trainer trainer(config, start, scratch_file("clip.pt").string());
  std::string metrics;
  const TrainStats stats = trainer.train(tiny_window(), 1, 1, &metrics, 1);
  EXPECT_GT(stats.grad_norm, 1e-3);  // a fresh net's gradient is far larger
  EXPECT_EQ(stats.clipped_steps, 1);
  double moved = 0;
  const nn::Model after = trainer.model({});
  for (const auto& [name, tensor] : start.tensors)
    for (size_t i = 0; i < tensor.data.size(); ++i) {
      const double d = double(after.at(name).data[i]) - tensor.data[i];
      moved += d * d;
    }
  EXPECT_NEAR(std::sqrt(moved), 1e-3, 1e-5);
  const view::TrainLine line = view::parse_train_line(metrics.substr(0, metrics.find('\n')), "metrics");
  EXPECT_DOUBLE_EQ(line.grad_norm, stats.grad_norm);
}

TEST(Trainer, CorruptOptimizerFileStartsFresh) {
  const fs::path path = scratch_file("corrupt.pt");
  std::ofstream(path) << "not a torch archive";
  Trainer trainer(adam_config(), nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 1),
                  path.string());
  EXPECT_EQ(trainer.train(tiny_window(), 1, 1, nullptr, 0).steps, 1);
}

// The late drop: generations before lr_decay_generation train at the full
// rate, that generation and later ones at the reduced rate (the metrics
// record it); 0 never drops.
TEST(Trainer, WarmupRampsTheRateUpThenTheScheduleRuns) {
  TrainConfig config = adam_config();
  config.warmup_steps = 4;
  for (int step = 0; step < 4; ++step) EXPECT_DOUBLE_EQ(step_learning_rate(config, 1, step, 100), 1e-3 * (step + 1) / 5);
  EXPECT_DOUBLE_EQ(step_learning_rate(config, 1, 4, 100), 1e-3);
  config.lr_schedule = "cosine";
  EXPECT_DOUBLE_EQ(step_learning_rate(config, 1, 1, 100), 0.4 * (1e-3 * (0.1 + 0.45 * (1 + std::cos(M_PI / 100)))));
  EXPECT_DOUBLE_EQ(step_learning_rate(config, 1, 50, 100), 1e-3 * 0.55);
  config.warmup_steps = 0;
  EXPECT_DOUBLE_EQ(step_learning_rate(config, 1, 0, 100), 1e-3);
}

TEST(Trainer, LearningRateDropsFromTheConfiguredGeneration) {
  TrainConfig config = adam_config();
  config.lr_decay_generation = 5;
  config.lr_decay_factor = 0.25;
  EXPECT_DOUBLE_EQ(learning_rate_for(config, 4), 1e-3);
  EXPECT_DOUBLE_EQ(learning_rate_for(config, 5), 2.5e-4);
  EXPECT_DOUBLE_EQ(learning_rate_for(config, 9), 2.5e-4);
  config.lr_decay_generation = 0;
  EXPECT_DOUBLE_EQ(learning_rate_for(config, 9), 1e-3);
  config.lr_decay_generation = 5;
  Trainer trainer(config, nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 1),
                  "");
  std::string before, after;
  trainer.train(tiny_window(), 1, 4, &before, 1);
  trainer.train(tiny_window(), 1, 5, &after, 1);
  // The metrics line records the rate the step used.
  EXPECT_NEAR(view::parse_train_line(before, "before").lr, 0.001, 1e-9) << before;
  EXPECT_NEAR(view::parse_train_line(after, "after").lr, 0.00025, 1e-9) << after;
}

}  // namespace
}  // namespace mushroom::train
