// The policy/value net as a LibTorch module, for training and for batched
// inference on CPU or CUDA. Parameter names equal the tensor names of
// nn/model.h, so a Model converts both ways without a mapping table.
#pragma once
#include <torch/torch.h>

#include "nn/model.h"

namespace mushroom::nn {

struct NetOutputs {
  torch::Tensor policy;     // [B, L] logits of the asked-for moves, not masked
  torch::Tensor wdl;        // [B, 3] win/draw/loss logits
  torch::Tensor score;      // [B] final margin / kScoreScale
  torch::Tensor ownership;  // [B, cells of the board] in [-1, 1]
};

class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear gpool{nullptr};
};
TORCH_MODULE(ResidualBlock);

class TorchNetImpl : public torch::nn::Module {
 public:
  explicit TorchNetImpl(const NetConfig& config);
  // planes: [B, kInputPlanes, 10, 17] float; moves: [B, L] int64 policy
  // indices (Move::index()). Only those L logits per row are computed (the
  // legal moves, typically a few hundred of the 28,901). A blockgame net
  // takes [B, planes, 5, 5] planes (nn/features.h) and slot indices (blockgame/blockgame_game.h).
  NetOutputs forward(const torch::Tensor& planes, const torch::Tensor& moves);
  // Every policy index: [B, kPolicySize] logits (tests, inspection).
  torch::Tensor full_policy(const torch::Tensor& planes);
  const NetConfig& config() const { return config_; }

 private:
  NetConfig config_;
  torch::nn::Conv2d input{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::Conv2d policy_conv{nullptr}, ownership_conv{nullptr};
  torch::nn::Linear policy_pass{nullptr}, value_fc1{nullptr}, value_fc2{nullptr};
};
TORCH_MODULE(TorchNet);

// Builds a net holding the model's weights (on the CPU; move it with ->to()).
TorchNet make_torch_net(const Model& model);
// Copies the net's weights (from any device) into a Model.
Model to_model(TorchNet& net, const std::map<std::string, std::string>& metadata = {});

// Log-probabilities over the legal moves only: illegal entries get a large
// negative logit (finite, so that 0 * logp stays 0 in the cross-entropy).
torch::Tensor masked_log_softmax(const torch::Tensor& logits, const torch::Tensor& legal_mask);

// Parses "cpu", "cuda" or "cuda:N"; throws naming the problem (e.g. CUDA
// asked for on a machine without it).
torch::Device parse_device(const std::string& name);

}  // namespace mushroom::nn
