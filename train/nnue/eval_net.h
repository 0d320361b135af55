// The learned evaluation (nnue/network.h) as a LibTorch
// module for training: the same arithmetic as
// nnue::reference_output, in float, on batches. The transformer
// is an embedding bag (the sum of each position's active rows); with output
// buckets each position's dense stack is picked by its phase and seat.
// Two targets ([evalnet] target):
//  - "probability" (Stockfish's NNUE way): sigmoid(output / scale) against
//      search_weight * sigmoid(search score / scale)
//      + (1 - search_weight) * sigmoid(final margin / scale),
//    and for samples with a teacher, (teacher value + 1) / 2 mixed in with
//    weight teacher_weight; the loss is the mean squared difference;
//  - "margin": the output against
//      search_weight * search score + (1 - search_weight) * final margin
//    in cells, by the Huber loss with huber_delta (no teacher).
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "nnue/network.h"
#include "train/nnue/eval_net_config.h"
#include "train/nnue/eval_window.h"
#include "util/rng.h"

namespace mushroom::train {

struct EvalBatch {
  torch::Tensor mover, opponent;  // [B, nnue::kActiveFeatures] int64 active features of each perspective
  // [B, nnue::kFlagInputs + nnue::kMobilityInputs] float: last move was a pass, the
  // mover moved first, then the mobility inputs (a net without them reads
  // the first nnue::kFlagInputs columns only)
  torch::Tensor flags;
  torch::Tensor margin, gain;     // [B] float, cells: the mover's margin and best immediate gain
  torch::Tensor mushrooms_left;   // [B] int64: the phase, for the buckets
  torch::Tensor search, result;   // [B] float, cells: the search score and the final margin
  torch::Tensor teacher;          // [B] float: the teacher's value in [-1, 1] (0 where there is none)
  torch::Tensor has_teacher;      // [B] float: 1 where there is a teacher's value
  int64_t size() const { return mover.size(0); }
  EvalBatch to(const torch::Device& device) const;
};

// window[indices], each under a random board symmetry.
EvalBatch make_eval_batch(const std::vector<EvalRecord>& window, const std::vector<int>& indices, Rng& rng);
// Positions' inputs (no labels): for checks against the runtimes.
EvalBatch eval_inputs(const std::vector<Position>& positions);

class EvalNetImpl : public torch::nn::Module {
 public:
  explicit EvalNetImpl(const nnue::Network& start);
  torch::Tensor forward(const EvalBatch& batch);  // [B] output in cells
  torch::Tensor buckets(const EvalBatch& batch) const;  // [B] int64: each position's dense stack
  // Clamps every weight into the integer runtime's ranges (after each step).
  void clip_to_runtime_ranges();
  nnue::Network to_model() const;
  const nnue::Shape& shape() const { return shape_; }

 private:
  nnue::Shape shape_;
  torch::Tensor ft_weight, ft_bias, l1_weight, l1_bias, l2_weight, l2_bias, out_weight, out_bias, skips;
};
TORCH_MODULE(EvalNet);

// Starting weights: small random transformer rows and dense layers, the
// output layer near zero and the skips at the hand evaluation's (1, 0.5),
// so a fresh net plays about like the hand evaluation.
nnue::Network initial_eval_model(const EvalNetConfig& config, uint64_t seed);

// The batch's loss under config's target (see the top of this file).
torch::Tensor eval_loss(const torch::Tensor& output, const EvalBatch& batch, const EvalNetConfig& config);

}  // namespace mushroom::train
