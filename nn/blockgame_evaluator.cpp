#include "nn/blockgame_evaluator.h"

#include "nn/features.h"
#include "nn/torch_net.h"

namespace mushroom::nn {

static_assert(kBlockgameSize == blockgame::kSize && kBlockgamePolicySize == blockgame::kPolicySlots &&
                  kBlockgameOrientations == blockgame::kOrientations,
              "nn/features.h repeats the blockgame sizes; they must agree");

namespace {
constexpr size_t kCacheLimit = 1 << 20;  // entries; the cache is cleared past this
}

struct BlockgameEvaluator::Net {
  torch::Device device{torch::kCPU};
  TorchNet net{nullptr};
  int feature_version = 0;  // the net's input layout (nn/features.h)
};

BlockgameEvaluator::BlockgameEvaluator(const Model& model, const std::string& device) : net_(std::make_unique<Net>()) {
  require_game(model, GameKind::kBlockgame, "the blockgame evaluator");
  net_->device = parse_device(device);
  net_->net = make_torch_net(model);
  net_->feature_version = feature_version_of(model.config);
  net_->net->to(net_->device);
  net_->net->eval();
}

BlockgameEvaluator::~BlockgameEvaluator() = default;

void BlockgameEvaluator::evaluate(Span<const EvalRequest<blockgame::BlockGame>> requests, Span<EvalResult> results) {
  std::vector<size_t> misses;
  int64_t L = 1;
  for (size_t i = 0; i < requests.size(); ++i) {
    auto hit = cache_.find(requests[i].state->filled);
    if (hit != cache_.end() && hit->second.priors.size() == size_t(requests[i].num_actions)) {
      results[i] = hit->second;
    } else {
      misses.push_back(i);
      L = std::max<int64_t>(L, requests[i].num_actions);
    }
  }
  if (misses.empty()) return;
  const int64_t B = int64_t(misses.size());
  const int plane_count = blockgame_planes(net_->feature_version);
  const int plane_size = plane_count * kBlockgameSize * kBlockgameSize;
  torch::Tensor planes = torch::empty({B, plane_count, kBlockgameSize, kBlockgameSize});
  torch::Tensor moves = torch::zeros({B, L}, torch::kInt64);
  torch::Tensor mask = torch::zeros({B, L}, torch::kBool);
  auto m = moves.accessor<int64_t, 2>();
  auto k = mask.accessor<bool, 2>();
  for (int64_t b = 0; b < B; ++b) {
    const auto& request = requests[misses[size_t(b)]];
    encode_blockgame_features(request.state->filled, planes.data_ptr<float>() + b * plane_size, net_->feature_version);
    for (int a = 0; a < request.num_actions; ++a) {
      m[b][a] = blockgame::slot_of_placement(request.actions[a]);
      k[b][a] = true;
    }
  }
  torch::NoGradGuard no_grad;
  const NetOutputs out = net_->net->forward(planes.to(net_->device), moves.to(net_->device));
  const torch::Tensor priors = masked_log_softmax(out.policy, mask.to(net_->device)).exp().to(torch::kCPU);
  const torch::Tensor wdl = torch::softmax(out.wdl, 1).to(torch::kCPU);
  auto p = priors.accessor<float, 2>();
  auto w = wdl.accessor<float, 2>();
  if (cache_.size() > kCacheLimit) cache_.clear();
  for (int64_t b = 0; b < B; ++b) {
    const size_t i = misses[size_t(b)];
    EvalResult& r = results[i];
    r.value = w[b][0] - w[b][2];
    r.margin = r.value;
    r.priors.assign(size_t(requests[i].num_actions), 0.0f);
    for (int a = 0; a < requests[i].num_actions; ++a) r.priors[size_t(a)] = p[b][a];
    cache_[requests[i].state->filled] = r;
  }
}

}  // namespace mushroom::nn
