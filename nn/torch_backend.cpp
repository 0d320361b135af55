#include "nn/torch_backend.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include "nn/torch_net.h"

namespace mushroom::nn {

namespace {

class TorchBackend : public NetBackend {
 public:
  TorchBackend(const Model& model, const std::string& device)
      : device_(parse_device(device)), net_(make_torch_net(model)), shape_(game_shape(model.config.game)),
        planes_(input_planes(model.config)) {
    net_->to(device_);
    net_->eval();
    // On a GPU each backend calls on a stream of its own, so that with two
    // (selfplay.device_threads) one launches while the other's kernels run;
    // on the default stream their calls would follow each other whole.
    if (device_.is_cuda()) stream_ = c10::impl::VirtualGuardImpl(device_.type()).getStreamFromGlobalPool(device_);
  }

  std::string name() const override { return "torch-" + device_.str(); }

  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override {
    const int64_t B = int64_t(queries.size());
    if (B == 0) return;
    torch::NoGradGuard no_grad;
    std::unique_ptr<c10::StreamGuard> on_own_stream;
    if (stream_) on_own_stream = std::make_unique<c10::StreamGuard>(*stream_);
    const int64_t cells = int64_t(shape_.rows) * shape_.cols, plane_floats = planes_ * cells;
    torch::Tensor planes = torch::empty({B, planes_, shape_.rows, shape_.cols}, torch::kFloat32);
    int64_t L = 1;
    bool any_ownership = false;
    for (const NetQuery& q : queries) {
      L = std::max<int64_t>(L, q.num_slots);
      any_ownership |= q.want_ownership;
    }
    // Rows padded with index 0 (a valid policy index); padding is ignored.
    torch::Tensor moves = torch::zeros({B, L}, torch::kInt64);
    float* plane_data = planes.data_ptr<float>();
    for (int64_t b = 0; b < B; ++b) {
      std::copy(queries[b].planes, queries[b].planes + plane_floats, plane_data + b * plane_floats);
      int64_t* row = moves[b].data_ptr<int64_t>();
      for (int i = 0; i < queries[b].num_slots; ++i) row[i] = queries[b].slots[i];
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
      e.logits.assign(l + b * L, l + b * L + queries[b].num_slots);
      e.ownership.clear();
      if (queries[b].want_ownership) {
        const float* own = ownership.data_ptr<float>() + b * cells;
        e.ownership.assign(own, own + cells);
      }
    }
  }

 private:
  torch::Device device_;
  std::optional<c10::Stream> stream_;  // on a GPU
  TorchNet net_;
  GameShape shape_;
  int planes_;  // of the net's input layout
};

}  // namespace

std::unique_ptr<NetBackend> make_torch_backend(const Model& model, const std::string& device, int threads) {
  if (threads > 0) torch::set_num_threads(threads);
  return std::make_unique<TorchBackend>(model, device);
}

}  // namespace mushroom::nn
