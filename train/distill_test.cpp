#include "train/distill.h"

#include <gtest/gtest.h>

#include "mushroom/playout_positions.h"
#include "train/train_test_util.h"

namespace mushroom::train {
namespace {

const nn::NetConfig kTiny{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8};

TEST(Distill, FullTeacherWeightGivesTheTeachersOutputs) {
  torch::manual_seed(3);
  nn::TorchNet teacher(kTiny);
  Batch b = synthetic_batch(playout_positions(6, 5));
  const Batch recorded = b;
  make_distill_retarget(teacher, DistillConfig{.teacher_policy = 1.0, .teacher_value = 1.0, .data = ""})(b);
  torch::NoGradGuard no_grad;
  const nn::NetOutputs t = teacher->forward(recorded.planes, recorded.moves);
  const torch::Tensor expected = nn::masked_log_softmax(t.policy, recorded.move_mask).exp();
  EXPECT_LT((b.policy_target - expected).abs().max().item<float>(), 1e-6);
  EXPECT_LT((b.wdl_soft - torch::softmax(t.wdl, 1)).abs().max().item<float>(), 1e-6);
  EXPECT_LT((b.score_target - t.score).abs().max().item<float>(), 1e-6);
  // Rows are distributions; padding gets nothing.
  EXPECT_LT((b.policy_target.sum(1) - 1).abs().max().item<float>(), 1e-5);
  EXPECT_EQ(b.policy_target.masked_select(~recorded.move_mask).abs().max().item<float>(), 0.0f);
}

TEST(Distill, ZeroTeacherWeightKeepsTheRecordedTargets) {
  torch::manual_seed(4);
  nn::TorchNet teacher(kTiny);
  Batch b = synthetic_batch(playout_positions(6, 6));
  const Batch recorded = b;
  make_distill_retarget(teacher, DistillConfig{.teacher_policy = 0.0, .teacher_value = 0.0, .data = ""})(b);
  EXPECT_TRUE(torch::allclose(b.policy_target, recorded.policy_target));
  EXPECT_TRUE(torch::allclose(b.wdl_soft, torch::one_hot(recorded.wdl_target, 3).to(torch::kFloat)));
  EXPECT_TRUE(torch::allclose(b.ownership_target, recorded.ownership_target));
}

TEST(Distill, AStudentLearnsTheTeachersPolicy) {
  torch::manual_seed(5);
  const Batch recorded = synthetic_batch(playout_positions(16, 7));
  // A teacher with opinions: trained on the recorded targets first.
  nn::TorchNet teacher(nn::NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8, .value_hidden = 16});
  torch::optim::Adam teach(teacher->parameters(), torch::optim::AdamOptions(3e-3));
  for (int step = 0; step < 150; ++step) {
    teach.zero_grad();
    compute_loss(teacher, recorded, {}).total.backward();
    teach.step();
  }
  Batch b = recorded;
  make_distill_retarget(teacher, DistillConfig{.teacher_policy = 1.0, .teacher_value = 1.0, .data = ""})(b);
  const torch::Tensor p = b.policy_target;
  const double teacher_entropy = (-(p * torch::log(p.clamp_min(1e-12))).sum(1)).mean().item<double>();

  nn::TorchNet student(kTiny);
  torch::optim::Adam opt(student->parameters(), torch::optim::AdamOptions(3e-3));
  double first_kl = 0, last_kl = 0;
  for (int step = 0; step < 200; ++step) {
    opt.zero_grad();
    const LossTerms terms = compute_loss(student, b, {});
    terms.total.backward();
    opt.step();
    // The policy loss is cross-entropy to the teacher: KL plus its entropy.
    (step == 0 ? first_kl : last_kl) = terms.policy - teacher_entropy;
  }
  EXPECT_LT(last_kl, 0.5 * first_kl) << "KL to the teacher: first " << first_kl << ", last " << last_kl;
}

}  // namespace
}  // namespace mushroom::train
