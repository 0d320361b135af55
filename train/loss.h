// The training loss: policy cross-entropy over the legal moves, plus the
// value (win/draw/loss cross-entropy), score (Huber on margin / kScoreScale)
// and ownership (mean squared error per cell) terms, each weighted.
#pragma once
#include <torch/torch.h>

#include "nn/torch_net.h"
#include "train/train_config.h"

namespace mushroom::train {

// One batch, all tensors on the same device.
struct Batch {
  torch::Tensor planes;            // [B, 17, 10, 17] float
  torch::Tensor moves;             // [B, L] int64 policy indices of the legal moves, padded
  torch::Tensor move_mask;         // [B, L] bool: false on padding
  torch::Tensor policy_target;     // [B, L] float, rows sum to 1, zero on padding
  torch::Tensor wdl_target;        // [B] int64: 0 win, 1 draw, 2 loss for the side to move
  torch::Tensor score_target;      // [B] float: final margin / kScoreScale
  torch::Tensor ownership_target;  // [B, kCells] float in {-1, 0, 1}
  torch::Tensor weight;            // [B] float sample weights
  // Optional [B, 3] win/draw/loss distribution (distillation: the teacher's
  // values mixed with the outcome); when defined it replaces wdl_target.
  torch::Tensor wdl_soft;
  int64_t size() const { return planes.size(0); }
  Batch to(const torch::Device& device) const;
};

struct LossTerms {
  torch::Tensor total;  // the weighted sum, for backward()
  double policy = 0, value = 0, score = 0, ownership = 0;
  double policy_entropy = 0;  // of the net's masked policy, in nats
};

LossTerms compute_loss(nn::TorchNet& net, const Batch& batch, const LossWeights& weights);

}  // namespace mushroom::train
