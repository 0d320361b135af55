#include "train/distill.h"

namespace mushroom::train {

std::function<void(Batch&)> make_distill_retarget(nn::TorchNet teacher, const DistillConfig& config) {
  teacher->eval();
  const double tp = config.teacher_policy, tv = config.teacher_value;
  return [teacher, tp, tv](Batch& b) mutable {
    torch::NoGradGuard no_grad;
    const nn::NetOutputs t = teacher->forward(b.planes, b.moves);
    // Padding gets probability 0: masked_log_softmax gives it a huge negative.
    const torch::Tensor teacher_policy = nn::masked_log_softmax(t.policy, b.move_mask).exp();
    b.policy_target = tp * teacher_policy + (1 - tp) * b.policy_target;
    const torch::Tensor outcome = torch::one_hot(b.wdl_target, 3).to(torch::kFloat);
    b.wdl_soft = tv * torch::softmax(t.wdl, 1) + (1 - tv) * outcome;
    b.score_target = tv * t.score + (1 - tv) * b.score_target;
    b.ownership_target = tv * t.ownership + (1 - tv) * b.ownership_target;
  };
}

}  // namespace mushroom::train
