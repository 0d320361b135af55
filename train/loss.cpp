#include "train/loss.h"

namespace mushroom::train {

Batch Batch::to(const torch::Device& device) const {
  Batch b{planes.to(device),           moves.to(device),        move_mask.to(device),
          policy_target.to(device),    wdl_target.to(device),   score_target.to(device),
          ownership_target.to(device), weight.to(device),       torch::Tensor()};
  if (wdl_soft.defined()) b.wdl_soft = wdl_soft.to(device);
  return b;
}

LossTerms compute_loss(nn::TorchNet& net, const Batch& b, const LossWeights& w) {
  const nn::NetOutputs out = net->forward(b.planes, b.moves);
  const torch::Tensor total_weight = b.weight.sum().clamp_min(1e-6);
  auto weighted_mean = [&](const torch::Tensor& per_sample) { return (per_sample * b.weight).sum() / total_weight; };

  const torch::Tensor logp = nn::masked_log_softmax(out.policy, b.move_mask);
  const torch::Tensor policy = weighted_mean(-(b.policy_target * logp).sum(1));
  const torch::Tensor value =
      b.wdl_soft.defined()
          ? weighted_mean(-(b.wdl_soft * torch::log_softmax(out.wdl, 1)).sum(1))
          : weighted_mean(torch::nn::functional::cross_entropy(
                out.wdl, b.wdl_target, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone)));
  const torch::Tensor score = weighted_mean(torch::nn::functional::smooth_l1_loss(
      out.score, b.score_target, torch::nn::functional::SmoothL1LossFuncOptions().reduction(torch::kNone)));
  const torch::Tensor ownership = weighted_mean((out.ownership - b.ownership_target).pow(2).mean(1));

  LossTerms terms;
  terms.total = w.policy * policy + w.value * value + w.score * score + w.ownership * ownership;
  terms.policy = policy.item<double>();
  terms.value = value.item<double>();
  terms.score = score.item<double>();
  terms.ownership = ownership.item<double>();
  {
    torch::NoGradGuard no_grad;
    terms.policy_entropy = (-(logp.exp() * logp).sum(1)).mean().item<double>();
  }
  return terms;
}

}  // namespace mushroom::train
