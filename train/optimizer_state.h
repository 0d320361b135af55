// The optimizer every trainer uses (SGD or Adam, from [train]) and its state
// file, which carries the moments from one generation to the next.
#pragma once
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "train/train_config.h"

namespace mushroom::train {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainConfig& config,
                                                        const std::vector<torch::Tensor>& parameters);

// An optimizer whose state is restored from path when that file exists and
// fits the parameters; else a fresh one, with a warning on stderr naming the
// file and why it was not usable.
std::unique_ptr<torch::optim::Optimizer> make_optimizer_with_state(const TrainConfig& config,
                                                                   const std::vector<torch::Tensor>& parameters,
                                                                   const std::string& path, const torch::Device& device);

// Saves atomically (temp file, then rename); nothing when path is empty.
void save_optimizer_state(torch::optim::Optimizer& optimizer, const std::string& path);

}  // namespace mushroom::train
