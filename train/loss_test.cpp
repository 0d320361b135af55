#include "train/loss.h"

#include <gtest/gtest.h>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "nn/features.h"
#include "mushroom/mushroom_game.h"
#include "train/train_test_util.h"

namespace mushroom::train {
namespace {

TEST(Loss, ZeroWeightSamplesDoNotCount) {
  torch::manual_seed(1);
  nn::TorchNet net(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8});
  const auto positions = playout_positions(8, 3);
  Batch b = synthetic_batch(positions);
  Batch first_half = synthetic_batch(std::vector<Position>(positions.begin(), positions.begin() + 4));
  b.weight.narrow(0, 4, 4).zero_();
  const LossTerms all = compute_loss(net, b, {});
  const LossTerms half = compute_loss(net, first_half, {});
  EXPECT_NEAR(all.policy, half.policy, 1e-4);
  EXPECT_NEAR(all.value, half.value, 1e-4);
}

// A few hundred optimizer steps on a fixed synthetic set must cut every
// term of the loss: shown, not assumed.
TEST(Loss, TrainingReducesTheLossOnSyntheticTargets) {
  torch::manual_seed(7);
  nn::TorchNet net(nn::NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8, .value_hidden = 16});
  const Batch data = synthetic_batch(playout_positions(64, 5));
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(3e-3));
  // The score and ownership terms are small numbers; weight them up so that
  // all four heads get a comparable share of the gradient.
  const LossWeights weights{.policy = 1, .value = 1, .score = 4, .ownership = 4};
  const LossTerms before = compute_loss(net, data, weights);
  LossTerms after;
  for (int step = 0; step < 300; ++step) {
    opt.zero_grad();
    after = compute_loss(net, data, weights);
    after.total.backward();
    opt.step();
  }
  after = compute_loss(net, data, weights);
  std::printf("loss before/after: policy %.3f -> %.3f, value %.3f -> %.3f, score %.4f -> %.4f, ownership %.4f -> %.4f\n",
              before.policy, after.policy, before.value, after.value, before.score, after.score, before.ownership,
              after.ownership);
  EXPECT_LT(after.policy, 0.5 * before.policy);
  EXPECT_LT(after.value, 0.5 * before.value);
  EXPECT_LT(after.score, 0.7 * before.score);
  EXPECT_LT(after.ownership, 0.7 * before.ownership);
  EXPECT_LT(after.total.item<double>(), 0.5 * before.total.item<double>());
}

}  // namespace
}  // namespace mushroom::train
