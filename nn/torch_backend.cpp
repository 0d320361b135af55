#include "nn/torch_backend.h"

#include <algorithm>

#include "nn/features.h"
#include "nn/torch_net.h"

namespace mushroom::nn {

namespace {

class TorchBackend : public NetBackend {
 public:
  TorchBackend(const Model& model, const std::string& device) : device_(parse_device(device)), net_(make_torch_net(model)) {
    require_game(model, GameKind::kMushroom, "the batched mushroom backend");
    net_->to(device_);
    net_->eval();
  }

  std::string name() const override { return "torch-" + device_.str(); }

  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override {
    const int64_t B = int64_t(queries.size());
    if (B == 0) return;
    torch::NoGradGuard no_grad;
    torch::Tensor planes = torch::empty({B, kInputPlanes, kRows, kCols}, torch::kFloat32);
    int64_t L = 1;
    bool any_ownership = false;
    for (const NetQuery& q : queries) {
      L = std::max<int64_t>(L, q.num_moves);
      any_ownership |= q.want_ownership;
    }
    // Rows padded with index 0 (a valid rectangle index); padding is ignored.
    torch::Tensor moves = torch::zeros({B, L}, torch::kInt64);
    for (int64_t b = 0; b < B; ++b) {
      encode_features(*queries[b].position, planes[b].data_ptr<float>());
      int64_t* row = moves[b].data_ptr<int64_t>();
      for (int i = 0; i < queries[b].num_moves; ++i) row[i] = queries[b].moves[i].index();
    }
    const NetOutputs o = net_->forward(planes.to(device_), moves.to(device_));
    const torch::Tensor logits = o.policy.to(torch::kCPU).contiguous();
    const torch::Tensor heads = torch::cat({o.wdl, o.score.unsqueeze(1)}, 1).to(torch::kCPU).contiguous();
    torch::Tensor ownership;
    if (any_ownership) ownership = o.ownership.to(torch::kCPU).contiguous();
    const float* l = logits.data_ptr<float>();
    const float* h = heads.data_ptr<float>();
    for (int64_t b = 0; b < B; ++b) {
      NetEval& e = out[b];
      wdl_softmax(h + 4 * b, e.wdl);
      e.margin = h[4 * b + 3] * kScoreScale;
      e.logits.assign(l + b * L, l + b * L + queries[b].num_moves);
      e.ownership.clear();
      if (queries[b].want_ownership) {
        const float* own = ownership.data_ptr<float>() + b * kCells;
        e.ownership.assign(own, own + kCells);
      }
    }
  }

 private:
  torch::Device device_;
  TorchNet net_;
};

}  // namespace

std::unique_ptr<NetBackend> make_torch_backend(const Model& model, const std::string& device, int threads) {
  if (threads > 0) torch::set_num_threads(threads);
  return std::make_unique<TorchBackend>(model, device);
}

}  // namespace mushroom::nn
