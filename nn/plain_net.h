// Batch-1 inference in plain C++: no Eigen, no LibTorch, nothing beyond the
// standard library. It is the network inside the exported single-file bot
// (export/), and the engine runs the same code in the parity tests. The
// activation layout is CpuNet's (nn/cpu_net.h): a zero-bordered 12x19 grid,
// one row per cell with the channels contiguous. A 3x3 convolution
// accumulates each output cell in a fixed-size array, so for the usual
// channel counts the compiler keeps it in vector registers; zero inputs
// (ReLU outputs, one-hot planes) are skipped.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/model.h"
#include "nn/net_eval.h"
#include "mushroom/position.h"

namespace mushroom::nn {

class PlainNet : public NetBackend {
 public:
  explicit PlainNet(const Model& model);

  void evaluate(const Position& pos, const Move* moves, int num_moves, NetEval& out, bool want_ownership = false);
  // From encoded input planes (kInputSize floats) and policy indices.
  void evaluate_planes(const float* planes, const int32_t* slots, int num_slots, NetEval& out, bool want_ownership);
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override;
  std::string name() const override { return "plain"; }
  const NetConfig& config() const { return config_; }

  struct Conv {
    int in = 0, out = 0;
    std::vector<float> w;     // [9][in][out]: w[(k * in + i) * out + o] = weight[o][i][k / 3][k % 3]
    std::vector<float> bias;  // [out]
  };
  struct Linear {
    int in = 0, out = 0;
    std::vector<float> w;     // [in][out]
    std::vector<float> bias;  // [out] (empty: none)
  };

 private:
  void conv(const float* in, const Conv& c, float* out) const;
  void pool(const float* a, int channels);

  NetConfig config_;
  Conv input_;
  struct Block {
    Conv conv1, conv2;
    Linear gpool;  // 2C -> C, no bias
  };
  std::vector<Block> blocks_;
  Linear policy_, pass_, fc1_, fc2_, ownership_;
  // Scratch, reused by every call (one PlainNet per thread).
  std::vector<float> grid_, x_, h_, h2_, uv_, pooled_, hidden_, gpool_out_;
  std::vector<int32_t> slots_;
};

}  // namespace mushroom::nn
