#include "train/nnue/eval_net.h"

#include <algorithm>
#include <cmath>

#include "mushroom/static_evaluator.h"
#include "mushroom/symmetry.h"
#include "nnue/evaluator.h"

namespace mushroom::train {


namespace {

// Weight limits that keep the integer runtime exact (nnue/network.h), as
// the runtime adds them (rounded to 1/127): 456 active features at 0.54
// (69/127 each) and a bias of 10 reach 32,734 of int16's 32,767.
constexpr double kFtWeightLimit = 0.54, kFtBiasLimit = 10, kDenseLimit = 127.0 / 64.0 - 1e-3, kSkipLimit = 100;

torch::Tensor from_vector(const std::vector<float>& v, std::vector<int64_t> shape) {
  return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat32).clone();
}

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}


constexpr int kFlagColumns = nnue::kFlagInputs + nnue::kMobilityInputs;

// Fills row b of the input tensors with pos and its scan of the rectangles.
void fill_inputs(const Position& pos, const LeafMoves& moves, int64_t b, EvalBatch& batch) {
  const Player me = pos.to_move(), them = Player(1 - me);
  int64_t* mover = batch.mover.data_ptr<int64_t>() + b * nnue::kActiveFeatures;
  int64_t* opponent = batch.opponent.data_ptr<int64_t>() + b * nnue::kActiveFeatures;
  int features[nnue::kActiveFeatures];
  nnue::active_features(pos, me, features);
  std::copy(features, features + nnue::kActiveFeatures, mover);
  nnue::active_features(pos, them, features);
  std::copy(features, features + nnue::kActiveFeatures, opponent);
  float* flags = batch.flags.data_ptr<float>() + b * kFlagColumns;
  flags[0] = pos.last_move_was_pass() ? 1.0f : 0.0f;
  flags[1] = me == kFirst ? 1.0f : 0.0f;
  nnue::mobility_inputs(moves.rectangles, 1.0f, flags + nnue::kFlagInputs);
  batch.margin.data_ptr<float>()[b] = float(pos.margin_for_side_to_move());
  batch.gain.data_ptr<float>()[b] = float(moves.best_gain);
  batch.mushrooms_left.data_ptr<int64_t>()[b] = pos.mushrooms_left();
}

EvalBatch empty_batch(int64_t B) {
  EvalBatch batch;
  batch.mover = torch::empty({B, nnue::kActiveFeatures}, torch::kInt64);
  batch.opponent = torch::empty({B, nnue::kActiveFeatures}, torch::kInt64);
  batch.flags = torch::empty({B, kFlagColumns});
  batch.margin = torch::empty({B});
  batch.gain = torch::empty({B});
  batch.mushrooms_left = torch::empty({B}, torch::kInt64);
  batch.search = torch::zeros({B});
  batch.result = torch::zeros({B});
  batch.teacher = torch::zeros({B});
  batch.has_teacher = torch::zeros({B});
  return batch;
}

}  // namespace

EvalBatch EvalBatch::to(const torch::Device& device) const {
  return {mover.to(device),  opponent.to(device), flags.to(device),   margin.to(device),
          gain.to(device),   mushrooms_left.to(device), search.to(device), result.to(device),
          teacher.to(device), has_teacher.to(device)};
}

EvalBatch make_eval_batch(const std::vector<EvalRecord>& window, const std::vector<int>& indices, Rng& rng) {
  const int64_t B = int64_t(indices.size());
  EvalBatch batch = empty_batch(B);
  for (int64_t b = 0; b < B; ++b) {
    const EvalRecord& r = window[size_t(indices[size_t(b)])];
    const Position pos = transform(Symmetry(rng.uniform(4)), position_of(r));
    fill_inputs(pos, leaf_moves_of(r, pos), b, batch);
    batch.search.data_ptr<float>()[b] = float(r.search_score) / float(kEvalScale);
    batch.result.data_ptr<float>()[b] = float(r.margin);
    if (r.flags & EvalRecord::kHasTeacher) {
      batch.teacher.data_ptr<float>()[b] = float(r.teacher) / 1000.0f;
      batch.has_teacher.data_ptr<float>()[b] = 1.0f;
    }
  }
  return batch;
}

EvalBatch eval_inputs(const std::vector<Position>& positions) {
  EvalBatch batch = empty_batch(int64_t(positions.size()));
  for (size_t b = 0; b < positions.size(); ++b)
    fill_inputs(positions[b], scan_leaf_moves(positions[b]), int64_t(b), batch);
  return batch;
}

EvalNetImpl::EvalNetImpl(const nnue::Network& m)
    : shape_(m.shape) {
  const nnue::Shape& x = shape_;
  const int64_t S = x.stacks();
  ft_weight = register_parameter("ft_weight", from_vector(m.ft_weight, {nnue::kFeatures, x.hidden}));
  ft_bias = register_parameter("ft_bias", from_vector(m.ft_bias, {x.hidden}));
  l1_weight = register_parameter("l1_weight", from_vector(m.l1_weight, {S * x.l1, x.dense_inputs()}));
  l1_bias = register_parameter("l1_bias", from_vector(m.l1_bias, {S * x.l1}));
  l2_weight = register_parameter("l2_weight", from_vector(m.l2_weight, {S, x.l2, x.l1}));
  l2_bias = register_parameter("l2_bias", from_vector(m.l2_bias, {S, x.l2}));
  out_weight = register_parameter("out_weight", from_vector(m.out_weight, {S, x.l2}));
  out_bias = register_parameter("out_bias", from_vector(m.out_bias, {S}));
  skips = register_parameter("skips", torch::tensor({m.skip_margin, m.skip_gain}));
}

torch::Tensor EvalNetImpl::buckets(const EvalBatch& batch) const {
  // nnue::Shape::bucket() on tensors: equal bands of the mushrooms taken, then the seat.
  const int phases = shape_.phase_buckets;
  torch::Tensor phase = ((170 - batch.mushrooms_left) * phases).div(nnue::kPhaseSpan, "floor").clamp(0, phases - 1);
  if (shape_.seat_buckets == 2) phase = phase + (1 - batch.flags.select(1, 1).to(torch::kInt64)) * phases;
  return phase;
}

torch::Tensor EvalNetImpl::forward(const EvalBatch& batch) {
  namespace F = torch::nn::functional;
  const auto bag = F::EmbeddingBagFuncOptions().mode(torch::kSum);
  const torch::Tensor mine = (F::embedding_bag(batch.mover, ft_weight, bag) + ft_bias).clamp(0, 1);
  const torch::Tensor theirs = (F::embedding_bag(batch.opponent, ft_weight, bag) + ft_bias).clamp(0, 1);
  const torch::Tensor flags = batch.flags.narrow(1, 0, shape_.mobility ? kFlagColumns : nnue::kFlagInputs);
  const torch::Tensor x = torch::cat({mine, theirs, flags}, 1);
  const int64_t B = x.size(0), S = out_bias.size(0);
  const torch::Tensor k = buckets(batch);
  // Every stack's first layer at once, then each position's own; the
  // later layers by gathering each position's stack.
  const int64_t l1 = shape_.l1;
  const torch::Tensor all1 = F::linear(x, l1_weight, l1_bias).view({B, S, l1});
  const torch::Tensor h1 = all1.gather(1, k.view({B, 1, 1}).expand({B, 1, l1})).squeeze(1).clamp(0, 1);
  const torch::Tensor h2 =
      (torch::bmm(l2_weight.index_select(0, k), h1.unsqueeze(2)).squeeze(2) + l2_bias.index_select(0, k)).clamp(0, 1);
  const torch::Tensor y = (out_weight.index_select(0, k) * h2).sum(1) + out_bias.index_select(0, k);
  return y + skips[0] * batch.margin + skips[1] * batch.gain;
}

void EvalNetImpl::clip_to_runtime_ranges() {
  torch::NoGradGuard no_grad;
  ft_weight.clamp_(-kFtWeightLimit, kFtWeightLimit);
  ft_bias.clamp_(-kFtBiasLimit, kFtBiasLimit);
  for (torch::Tensor* t : {&l1_weight, &l2_weight, &out_weight}) t->clamp_(-kDenseLimit, kDenseLimit);
  skips.clamp_(-kSkipLimit, kSkipLimit);
}

nnue::Network EvalNetImpl::to_model() const {
  nnue::Network m = nnue::Network::hand_equivalent(shape_);
  m.ft_weight = to_vector(ft_weight);
  m.ft_bias = to_vector(ft_bias);
  m.l1_weight = to_vector(l1_weight);
  m.l1_bias = to_vector(l1_bias);
  m.l2_weight = to_vector(l2_weight);
  m.l2_bias = to_vector(l2_bias);
  m.out_weight = to_vector(out_weight);
  m.out_bias = to_vector(out_bias);
  const std::vector<float> s = to_vector(skips);
  m.skip_margin = s[0];
  m.skip_gain = s[1];
  return m;
}

nnue::Network initial_eval_model(const EvalNetConfig& config, uint64_t seed) {
  if (config.shape.hidden % 16 != 0)
    throw std::invalid_argument("evalnet.hidden = " + std::to_string(config.shape.hidden) + " is not a multiple of 16");
  nnue::Network m = nnue::Network::hand_equivalent(config.shape);
  Rng rng(seed);
  const auto fill = [&](std::vector<float>& v, double scale) {
    for (float& x : v) x = float(scale * (2 * rng.uniform_double() - 1));
  };
  fill(m.ft_weight, 0.02);
  for (float& b : m.ft_bias) b = 0.5f;  // the accumulators start inside crelu's linear range
  fill(m.l1_weight, 1.0 / std::sqrt(double(config.shape.dense_inputs()) - 1));
  for (float& b : m.l1_bias) b = 0.5f;
  fill(m.l2_weight, 1.0 / std::sqrt(double(config.shape.l1)));
  for (float& b : m.l2_bias) b = 0.5f;
  fill(m.out_weight, 0.01);
  return m;
}

torch::Tensor eval_loss(const torch::Tensor& output, const EvalBatch& batch, const EvalNetConfig& config) {
  const double w = config.search_weight;
  if (config.target == "margin")
    return torch::nn::functional::huber_loss(
        output, w * batch.search + (1 - w) * batch.result,
        torch::nn::functional::HuberLossFuncOptions().delta(config.huber_delta));
  const double s = config.scale;
  torch::Tensor target = w * torch::sigmoid(batch.search / s) + (1 - w) * torch::sigmoid(batch.result / s);
  const torch::Tensor mix = config.teacher_weight * batch.has_teacher;
  target = (1 - mix) * target + mix * (batch.teacher + 1) / 2;
  return (torch::sigmoid(output / s) - target).pow(2).mean();
}

}  // namespace mushroom::train
