// Batch-1 inference on the CPU with Eigen, no LibTorch: the path the search
// uses at contest time. Activations live on a zero-bordered 12x19 grid, one
// row per cell with the channels contiguous, so a 3x3 convolution is one
// matrix product of an im2col block (188 rows: the board rows with their
// borders) by a [9*in x out] weight matrix. Only the logits of the queried
// moves are computed, not the whole 170x170 table.
#pragma once
#include <memory>
#include <vector>

#include "nn/model.h"
#include "nn/net_eval.h"
#include "mushroom/position.h"

namespace mushroom::nn {

class CpuNet : public NetBackend {
 public:
  explicit CpuNet(const Model& model);
  ~CpuNet() override;

  void evaluate(const Position& pos, const Move* moves, int num_moves, NetEval& out, bool want_ownership = false);
  // Same, from encoded input planes (kInputSize floats) and policy indices.
  void evaluate_planes(const float* planes, const int32_t* slots, int num_slots, NetEval& out, bool want_ownership);

  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override;
  std::string name() const override { return "cpu"; }
  const NetConfig& config() const { return config_; }

 private:
  struct Weights;
  NetConfig config_;
  std::unique_ptr<Weights> w_;
  std::vector<int32_t> slots_;
};

}  // namespace mushroom::nn
