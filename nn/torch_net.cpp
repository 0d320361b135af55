#include "nn/torch_net.h"

#include <cmath>
#include <stdexcept>

#include "nn/features.h"

namespace mushroom::nn {

namespace {
torch::nn::Conv2d conv(int in, int out, int kernel) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2));
}

// [mean, max] over the board: [B, C, H, W] -> [B, 2C].
torch::Tensor global_pool(const torch::Tensor& x) {
  return torch::cat({x.mean({2, 3}), x.amax({2, 3})}, 1);
}
}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int channels) {
  conv1 = register_module("conv1", conv(channels, channels, 3));
  gpool = register_module("gpool", torch::nn::Linear(torch::nn::LinearOptions(2 * channels, channels).bias(false)));
  conv2 = register_module("conv2", conv(channels, channels, 3));
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  torch::Tensor h = torch::relu(conv1->forward(x));
  h = h + gpool->forward(global_pool(h)).unsqueeze(2).unsqueeze(3);
  return torch::relu(x + conv2->forward(h));
}

TorchNetImpl::TorchNetImpl(const NetConfig& config) : config_(config) {
  validate(config);
  const int C = config.channels, E = config.policy_dim, H = config.value_hidden;
  input = register_module("input", conv(input_planes(config), C, 3));
  blocks = register_module("blocks", torch::nn::ModuleList());
  for (int b = 0; b < config.blocks; ++b) blocks->push_back(ResidualBlock(C));
  // Nested names ("policy.conv", "value.fc1") come from small holder modules.
  auto policy = register_module("policy", std::make_shared<torch::nn::Module>());
  if (game_shape(config.game).head == PolicyHead::kCellSlots) {
    policy_conv = policy->register_module("conv", conv(C, game_shape(config.game).slots_per_cell, 1));
  } else {
    policy_conv = policy->register_module("conv", conv(C, 2 * E, 1));
    policy_pass = policy->register_module("pass", torch::nn::Linear(2 * C, 1));
  }
  auto value = register_module("value", std::make_shared<torch::nn::Module>());
  value_fc1 = value->register_module("fc1", torch::nn::Linear(2 * C, H));
  value_fc2 = value->register_module("fc2", torch::nn::Linear(H, 4));
  auto ownership = register_module("ownership", std::make_shared<torch::nn::Module>());
  ownership_conv = ownership->register_module("conv", conv(C, 1, 1));
}

NetOutputs TorchNetImpl::forward(const torch::Tensor& planes, const torch::Tensor& moves) {
  const int64_t B = planes.size(0), L = moves.size(1);
  const int64_t E = config_.policy_dim;
  torch::Tensor x = torch::relu(input->forward(planes));
  for (const auto& block : *blocks) x = block->as<ResidualBlock>()->forward(x);
  const torch::Tensor pooled = global_pool(x);

  NetOutputs out;
  const int64_t cells = x.size(2) * x.size(3);
  const torch::Tensor head = value_fc2->forward(torch::relu(value_fc1->forward(pooled)));
  out.wdl = head.narrow(1, 0, 3);
  out.score = head.select(1, 3);
  out.ownership = torch::tanh(ownership_conv->forward(x)).reshape({B, cells});
  const GameShape shape = game_shape(config_.game);
  if (shape.head == PolicyHead::kCellSlots) {
    // Slot = k * cells + cell: the conv's output flattened, gathered per move.
    out.policy = policy_conv->forward(x).reshape({B, shape.slots_per_cell * cells}).gather(1, moves);
    return out;
  }
  // logit = <U[top-left], V[bottom-right]> / sqrt(E), gathered per move; the
  // pass is index cells * cells (kPassIndex on the mushroom board).
  const torch::Tensor uv = policy_conv->forward(x).reshape({B, 2 * E, cells}).transpose(1, 2);  // [B, cells, 2E]
  const torch::Tensor is_pass = moves.eq(cells * cells);
  const torch::Tensor rect = moves.masked_fill(is_pass, 0);
  const torch::Tensor u = uv.narrow(2, 0, E).gather(1, rect.div(cells, "floor").unsqueeze(2).expand({B, L, E}));
  const torch::Tensor v = uv.narrow(2, E, E).gather(1, rect.remainder(cells).unsqueeze(2).expand({B, L, E}));
  const torch::Tensor rect_logits = (u * v).sum(2) * (1.0 / std::sqrt(double(E)));
  out.policy = torch::where(is_pass, policy_pass->forward(pooled).expand({B, L}), rect_logits);
  return out;
}

torch::Tensor TorchNetImpl::full_policy(const torch::Tensor& planes) {
  const int64_t size = game_shape(config_.game).policy_size;
  const torch::Tensor all = torch::arange(size, torch::TensorOptions().dtype(torch::kInt64).device(planes.device()));
  return forward(planes, all.unsqueeze(0).expand({planes.size(0), size})).policy;
}

TorchNet make_torch_net(const Model& model) {
  validate(model);
  TorchNet net(model.config);
  torch::NoGradGuard no_grad;
  for (auto& item : net->named_parameters()) {
    const Tensor& t = model.at(item.key());
    torch::Tensor src = torch::from_blob(const_cast<float*>(t.data.data()), t.shape, torch::kFloat32);
    if (item.value().sizes() != src.sizes())
      throw std::runtime_error("tensor '" + item.key() + "' does not fit the LibTorch net");
    item.value().copy_(src);
  }
  return net;
}

Model to_model(TorchNet& net, const std::map<std::string, std::string>& metadata) {
  Model m;
  m.config = net->config();
  m.metadata = metadata;
  for (const auto& item : net->named_parameters()) {
    const torch::Tensor cpu = item.value().detach().to(torch::kCPU, torch::kFloat32).contiguous();
    Tensor t;
    t.shape.assign(cpu.sizes().begin(), cpu.sizes().end());
    t.data.assign(cpu.data_ptr<float>(), cpu.data_ptr<float>() + cpu.numel());
    m.tensors.emplace(item.key(), std::move(t));
  }
  validate(m);
  return m;
}

torch::Tensor masked_log_softmax(const torch::Tensor& logits, const torch::Tensor& legal_mask) {
  return torch::log_softmax(logits.masked_fill(legal_mask.logical_not(), -1e9), 1);
}

torch::Device parse_device(const std::string& name) {
  if (name == "cpu") return torch::Device(torch::kCPU);
  if (name == "cuda" || name.rfind("cuda:", 0) == 0) {
    if (!torch::cuda::is_available())
      throw std::runtime_error("device '" + name + "' asked for, but this LibTorch build sees no CUDA device");
    return torch::Device(name);
  }
  throw std::runtime_error("unknown device '" + name + "' (use cpu, cuda or cuda:N)");
}

}  // namespace mushroom::nn
