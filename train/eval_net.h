// The learned evaluation (mushroom/learned_eval_model.h) as a LibTorch
// module for training: the same arithmetic as
// LearnedEvaluator::reference_output, in float, on batches. The transformer
// is an embedding bag (the sum of each position's active rows).
// Targets live in win-probability space, as Stockfish trains NNUE: the
// output y (cells) is compared through sigmoid(y / scale) with a blend of
//   search  sigmoid(search score / scale)       weight search_weight (default 1)
//   result  sigmoid(final margin / scale)        the rest
// and, for samples with a teacher, (teacher value + 1) / 2 mixed in with
// weight teacher_weight. The loss is the mean squared difference.
#pragma once
#include <torch/torch.h>

#include <vector>

#include "mushroom/learned_eval_model.h"
#include "selfplay/sample.h"
#include "util/rng.h"
#include "train/eval_net_config.h"

namespace mushroom::train {

struct EvalBatch {
  torch::Tensor mover, opponent;  // [B, kEvalActiveFeatures] int64 active features of each perspective
  torch::Tensor flags;            // [B, kEvalFlags] float: last move was a pass, the mover moved first
  torch::Tensor margin, gain;     // [B] float, cells: the mover's margin and best immediate gain
  torch::Tensor target;           // [B] float in [0, 1]
  int64_t size() const { return mover.size(0); }
  EvalBatch to(const torch::Device& device) const;
};

// samples[indices] (mushroom-eval samples), each under a random board symmetry.
EvalBatch make_eval_batch(const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng,
                          const EvalNetConfig& config);
// One position's inputs (target 0.5): for checks against the runtimes.
EvalBatch eval_inputs(const std::vector<Position>& positions);

class EvalNetImpl : public torch::nn::Module {
 public:
  explicit EvalNetImpl(const LearnedEvalModel& start);
  torch::Tensor forward(const EvalBatch& batch);  // [B] output in cells
  // Clamps every weight into the integer runtime's ranges (after each step).
  void clip_to_runtime_ranges();
  LearnedEvalModel to_model() const;
  int hidden() const { return hidden_; }

 private:
  int hidden_, l1_, l2_;
  torch::Tensor ft_weight, ft_bias, l1_weight, l1_bias, l2_weight, l2_bias, out_weight, out_bias, skips;
};
TORCH_MODULE(EvalNet);

// Starting weights: small random transformer rows and dense layers, the
// output layer near zero and the skips at the hand evaluation's (1, 0.5),
// so a fresh net plays about like the hand evaluation.
LearnedEvalModel initial_eval_model(const EvalNetConfig& config, uint64_t seed);

// The batch's loss: mean squared difference in win-probability space.
torch::Tensor eval_loss(const torch::Tensor& output, const torch::Tensor& target, double scale);

}  // namespace mushroom::train
