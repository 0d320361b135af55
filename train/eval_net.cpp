#include "train/eval_net.h"

#include <algorithm>
#include <cmath>

#include "mushroom/learned_evaluator.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/symmetry.h"

namespace mushroom::train {


namespace {

// Weight limits that keep the integer runtime exact (learned_eval_model.h):
// 456 active features * 0.54 + 10 stays under the int16 accumulator's 258.
constexpr double kFtWeightLimit = 0.54, kFtBiasLimit = 10, kDenseLimit = 127.0 / 64.0 - 1e-3, kSkipLimit = 100;

torch::Tensor from_vector(const std::vector<float>& v, std::vector<int64_t> shape) {
  return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat32).clone();
}

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}


double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Fills row b of the input tensors with pos.
void fill_inputs(const Position& pos, int64_t b, int64_t* mover, int64_t* opponent, float* flags, float* margin,
                 float* gain) {
  const Player me = pos.to_move(), them = Player(1 - me);
  int features[kEvalActiveFeatures];
  learned_eval_features(pos, me, features);
  std::copy(features, features + kEvalActiveFeatures, mover + b * kEvalActiveFeatures);
  learned_eval_features(pos, them, features);
  std::copy(features, features + kEvalActiveFeatures, opponent + b * kEvalActiveFeatures);
  flags[b * kEvalFlags] = pos.last_move_was_pass() ? 1.0f : 0.0f;
  flags[b * kEvalFlags + 1] = me == kFirst ? 1.0f : 0.0f;
  margin[b] = float(pos.margin_for_side_to_move());
  gain[b] = float(best_margin_gain(pos));
}

EvalBatch empty_batch(int64_t B) {
  EvalBatch batch;
  batch.mover = torch::empty({B, kEvalActiveFeatures}, torch::kInt64);
  batch.opponent = torch::empty({B, kEvalActiveFeatures}, torch::kInt64);
  batch.flags = torch::empty({B, kEvalFlags});
  batch.margin = torch::empty({B});
  batch.gain = torch::empty({B});
  batch.target = torch::full({B}, 0.5f);
  return batch;
}

}  // namespace

EvalBatch EvalBatch::to(const torch::Device& device) const {
  return {mover.to(device), opponent.to(device), flags.to(device), margin.to(device), gain.to(device),
          target.to(device)};
}

EvalBatch make_eval_batch(const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng,
                          const EvalNetConfig& config) {
  const int64_t B = int64_t(indices.size());
  EvalBatch batch = empty_batch(B);
  float* target = batch.target.data_ptr<float>();
  for (int64_t b = 0; b < B; ++b) {
    const selfplay::Sample& s = samples[size_t(indices[size_t(b)])];
    const Position pos = transform(Symmetry(rng.uniform(4)), selfplay::position_of(s, selfplay::mushroom_eval_schema()));
    fill_inputs(pos, b, batch.mover.data_ptr<int64_t>(), batch.opponent.data_ptr<int64_t>(),
                batch.flags.data_ptr<float>(), batch.margin.data_ptr<float>(), batch.gain.data_ptr<float>());
    const selfplay::EvalLabels labels = selfplay::eval_labels_of(s);
    const double search = sigmoid(labels.search_score / double(kEvalScale) / config.scale);
    const double result = sigmoid(labels.margin / config.scale);
    double t = config.search_weight * search + (1 - config.search_weight) * result;
    if (labels.has_teacher)
      t = (1 - config.teacher_weight) * t + config.teacher_weight * (labels.teacher / 1000.0 + 1) / 2;
    target[b] = float(t);
  }
  return batch;
}

EvalBatch eval_inputs(const std::vector<Position>& positions) {
  EvalBatch batch = empty_batch(int64_t(positions.size()));
  for (size_t b = 0; b < positions.size(); ++b)
    fill_inputs(positions[b], int64_t(b), batch.mover.data_ptr<int64_t>(), batch.opponent.data_ptr<int64_t>(),
                batch.flags.data_ptr<float>(), batch.margin.data_ptr<float>(), batch.gain.data_ptr<float>());
  return batch;
}

EvalNetImpl::EvalNetImpl(const LearnedEvalModel& m) : hidden_(m.hidden), l1_(m.l1), l2_(m.l2) {
  ft_weight = register_parameter("ft_weight", from_vector(m.ft_weight, {kEvalFeatures, m.hidden}));
  ft_bias = register_parameter("ft_bias", from_vector(m.ft_bias, {m.hidden}));
  l1_weight = register_parameter("l1_weight", from_vector(m.l1_weight, {m.l1, 2 * m.hidden + kEvalFlags}));
  l1_bias = register_parameter("l1_bias", from_vector(m.l1_bias, {m.l1}));
  l2_weight = register_parameter("l2_weight", from_vector(m.l2_weight, {m.l2, m.l1}));
  l2_bias = register_parameter("l2_bias", from_vector(m.l2_bias, {m.l2}));
  out_weight = register_parameter("out_weight", from_vector(m.out_weight, {1, m.l2}));
  out_bias = register_parameter("out_bias", torch::full({1}, m.out_bias));
  skips = register_parameter("skips", torch::tensor({m.skip_margin, m.skip_gain}));
}

torch::Tensor EvalNetImpl::forward(const EvalBatch& batch) {
  namespace F = torch::nn::functional;
  const auto bag = F::EmbeddingBagFuncOptions().mode(torch::kSum);
  const torch::Tensor mine = (F::embedding_bag(batch.mover, ft_weight, bag) + ft_bias).clamp(0, 1);
  const torch::Tensor theirs = (F::embedding_bag(batch.opponent, ft_weight, bag) + ft_bias).clamp(0, 1);
  const torch::Tensor x = torch::cat({mine, theirs, batch.flags}, 1);
  const torch::Tensor h1 = F::linear(x, l1_weight, l1_bias).clamp(0, 1);
  const torch::Tensor h2 = F::linear(h1, l2_weight, l2_bias).clamp(0, 1);
  const torch::Tensor y = F::linear(h2, out_weight, out_bias).squeeze(1);
  return y + skips[0] * batch.margin + skips[1] * batch.gain;
}

void EvalNetImpl::clip_to_runtime_ranges() {
  torch::NoGradGuard no_grad;
  ft_weight.clamp_(-kFtWeightLimit, kFtWeightLimit);
  ft_bias.clamp_(-kFtBiasLimit, kFtBiasLimit);
  for (torch::Tensor* t : {&l1_weight, &l2_weight, &out_weight}) t->clamp_(-kDenseLimit, kDenseLimit);
  skips.clamp_(-kSkipLimit, kSkipLimit);
}

LearnedEvalModel EvalNetImpl::to_model() const {
  LearnedEvalModel m = LearnedEvalModel::hand_equivalent(hidden_, l1_, l2_);
  m.ft_weight = to_vector(ft_weight);
  m.ft_bias = to_vector(ft_bias);
  m.l1_weight = to_vector(l1_weight);
  m.l1_bias = to_vector(l1_bias);
  m.l2_weight = to_vector(l2_weight);
  m.l2_bias = to_vector(l2_bias);
  m.out_weight = to_vector(out_weight);
  m.out_bias = to_vector(out_bias)[0];
  const std::vector<float> s = to_vector(skips);
  m.skip_margin = s[0];
  m.skip_gain = s[1];
  return m;
}

LearnedEvalModel initial_eval_model(const EvalNetConfig& config, uint64_t seed) {
  if (config.hidden % 16 != 0)
    throw std::invalid_argument("evalnet.hidden = " + std::to_string(config.hidden) + " is not a multiple of 16");
  LearnedEvalModel m = LearnedEvalModel::hand_equivalent(config.hidden, config.l1, config.l2);
  Rng rng(seed);
  const auto fill = [&](std::vector<float>& v, double scale) {
    for (float& x : v) x = float(scale * (2 * rng.uniform_double() - 1));
  };
  fill(m.ft_weight, 0.02);
  for (float& b : m.ft_bias) b = 0.5f;  // the accumulators start inside crelu's linear range
  fill(m.l1_weight, 1.0 / std::sqrt(2.0 * config.hidden + 1));
  for (float& b : m.l1_bias) b = 0.5f;
  fill(m.l2_weight, 1.0 / std::sqrt(double(config.l1)));
  for (float& b : m.l2_bias) b = 0.5f;
  fill(m.out_weight, 0.01);
  return m;
}

torch::Tensor eval_loss(const torch::Tensor& output, const torch::Tensor& target, double scale) {
  return (torch::sigmoid(output / scale) - target).pow(2).mean();
}

}  // namespace mushroom::train
