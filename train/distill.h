// Distillation targets: a teacher net's policy, value, margin and ownership
// mixed into a batch's recorded targets (DistillConfig gives the weights).
// `mushroom distill` trains a smaller student on them for the exported bot.
#pragma once
#include <functional>

#include "nn/torch_net.h"
#include "train/loss.h"
#include "train/train_config.h"

namespace mushroom::train {

// The teacher must already sit on the batches' device; it is put in eval
// mode and run without gradients.
std::function<void(Batch&)> make_distill_retarget(nn::TorchNet teacher, const DistillConfig& config);

}  // namespace mushroom::train
