#include "nnue/evaluator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mushroom::nnue {

namespace {

int16_t to_int16(float v) { return int16_t(ft_integer(v)); }
int8_t to_int8(float v, float scale) { return int8_t(std::clamp<long>(std::lround(v * scale), -127, 127)); }
int32_t to_int32(float v, float scale) { return int32_t(std::lround(double(v) * scale)); }

// The dense layers' product scale: inputs in 0..127 (crelu's 1 is 127),
// weights times kDenseScale, so a sum is 127 * 64 times the float value.
constexpr int kShift = 6;  // log2(kDenseScale)
constexpr int64_t kSumScale = 127 * 64;

// A layer's sums go back to the 0..127 scale rounded by kernels::
// rescaled_crelu (a floor would bias every unit down by half a step).

// Rounded a / b (b > 0), halves away from zero.
int64_t rounded_div(int64_t a, int64_t b) { return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b); }

kernels::Isa checked_isa(kernels::Isa isa) {
  const kernels::Isa best = kernels::best_isa();
  if (int(isa) > int(best))
    throw std::invalid_argument(std::string("the learned evaluation's ") + kernels::isa_name(isa) +
                                " kernels need a CPU that has them; this one runs " + kernels::isa_name(best));
  return isa;
}

// A dense layer's float weights w[stack][output][input] as int8 in
// kernels::dense_sparse's layout, stack by stack, each stack's inputs
// padded with zeros to `stride`: row-major int8 first, then regrouped, which
// is all the search reads. Returns the int16 groups every stack allows
// (kernels::int16_groups_for).
int grouped_dense_weights(const std::vector<float>& w, size_t stacks, int outputs, int inputs, int stride,
                          std::vector<int8_t>& grouped) {
  const size_t rows = stacks * size_t(outputs), stack_size = size_t(stride) * size_t(kernels::chunked_outputs(outputs));
  std::vector<int8_t> row_major(rows * size_t(stride), 0);
  for (size_t j = 0; j < rows; ++j)
    for (int i = 0; i < inputs; ++i) row_major[j * stride + i] = to_int8(w[j * inputs + i], kDenseScale);
  grouped.assign(stacks * stack_size, 0);
  int int16_groups = kernels::kMaxInt16Groups;
  for (size_t k = 0; k < stacks; ++k) {
    int8_t* stack = grouped.data() + k * stack_size;
    kernels::chunked_dense_weights(row_major.data() + k * size_t(outputs) * size_t(stride), stride, outputs, stack);
    int16_groups = std::min(int16_groups, kernels::int16_groups_for(stack, stride, kernels::chunked_outputs(outputs)));
  }
  return int16_groups;
}
}  // namespace

Evaluator::Evaluator(const Network& m, bool use_simd)
    : Evaluator(m, use_simd ? kernels::default_isa() : kernels::Isa::kScalar) {}

Evaluator::Evaluator(const Network& m, kernels::Isa isa, FeatureRows rows)
    : shape_(m.shape), input_padded_((m.shape.dense_inputs() + 31) / 32 * 32),
      hidden1_padded_((m.shape.l1 + 31) / 32 * 32), hidden2_padded_((m.shape.l2 + 31) / 32 * 32),
      isa_(checked_isa(isa)) {
  ft_weight_.resize(m.ft_weight.size());
  for (size_t i = 0; i < m.ft_weight.size(); ++i) ft_weight_[i] = to_int16(m.ft_weight[i]);
  const bool fits_int8 = std::all_of(ft_weight_.begin(), ft_weight_.end(), [](int16_t w) { return w >= -128 && w <= 127; });
  if (rows == FeatureRows::kCompactWhenExact && fits_int8) {
    ft_weight8_.assign(ft_weight_.begin(), ft_weight_.end());
    std::vector<int16_t>().swap(ft_weight_);
  }
  ft_bias_.resize(m.ft_bias.size());
  for (size_t i = 0; i < m.ft_bias.size(); ++i) ft_bias_[i] = to_int16(m.ft_bias[i]);
  const int inputs = shape_.dense_inputs(), l1 = shape_.l1, l2 = shape_.l2;
  const size_t S = size_t(shape_.stacks());
  // Each stack's rows one after another, padded like a single stack's.
  l1_int16_groups_ = grouped_dense_weights(m.l1_weight, S, l1, inputs, input_padded_, l1_grouped_);
  l1_bias_.resize(S * l1);
  for (size_t j = 0; j < S * l1; ++j) l1_bias_[j] = to_int32(m.l1_bias[j], float(kSumScale));
  l2_int16_groups_ = grouped_dense_weights(m.l2_weight, S, l2, l1, hidden1_padded_, l2_grouped_);
  l2_bias_.resize(S * l2);
  for (size_t j = 0; j < S * l2; ++j) l2_bias_[j] = to_int32(m.l2_bias[j], float(kSumScale));
  // One row a stack, padded with zeros to hidden2_padded_ (kernels::dense's stride).
  out_weight_.assign(S * size_t(hidden2_padded_), 0);
  for (size_t k = 0; k < S; ++k)
    for (int i = 0; i < l2; ++i)
      out_weight_[k * hidden2_padded_ + i] = to_int8(m.out_weight[k * l2 + i], kDenseScale);
  out_bias_.resize(S);
  for (size_t k = 0; k < S; ++k) out_bias_[k] = to_int32(m.out_bias[k], float(kSumScale));
  skip_margin_ = to_int32(m.skip_margin, kSkipScale);
  skip_gain_ = to_int32(m.skip_gain, kSkipScale);
  stack_.assign(size_t(2) * shape_.hidden * 128, 0);
  states_.assign(size_t(kStatesSize) * 128, 0);
  plies_.assign(128, Ply{});
  input_.assign(size_t(input_padded_), 0);
  hidden1_.assign(size_t(hidden1_padded_), 0);  // zeros past l1 for the padded rows
  hidden2_.assign(size_t(hidden2_padded_), 0);  // zeros past L2, as out's padded weights
}

void Evaluator::apply_changes(const int16_t* from, int16_t* to, const int* removed, int n_removed, const int* added,
                              int n_added) const {
  if (compact_rows())
    kernels::update(isa_, from, to, ft_weight8_.data(), shape_.hidden, removed, n_removed, added, n_added);
  else
    kernels::update(isa_, from, to, ft_weight_.data(), shape_.hidden, removed, n_removed, added, n_added);
}

void Evaluator::refresh(const Position& pos, int16_t* acc) const {
  int features[kActiveFeatures];
  for (int p = 0; p < 2; ++p) {
    active_features(pos, Player(p), features);
    apply_changes(ft_bias_.data(), acc + size_t(p) * shape_.hidden, nullptr, 0, features, kActiveFeatures);
  }
}

void Evaluator::set_root(const Position& root) {
  depth_ = 0;
  computed_depth_ = 0;
  ++node_;
  refresh(root, accumulator(0));
  first_view_states(root, states(0));
}

void Evaluator::push(const Position& pos, const Move& move) {
  if (size_t(depth_ + 2) * 2 * shape_.hidden > stack_.size()) {
    stack_.resize(stack_.size() * 2);
    states_.resize(states_.size() * 2);
    plies_.resize(plies_.size() * 2);
  }
  // Only noted: the accumulators follow when an evaluation needs them
  // (bring_up_to_date), so a node the search leaves without evaluating it
  // or anything below it (a table cut, a finished game) costs nothing.
  plies_[size_t(++depth_)] = {move, pos.to_move()};
  ++node_;
}

void Evaluator::bring_up_to_date() {
  while (computed_depth_ < depth_) compute_ply(++computed_depth_);
}

void Evaluator::compute_ply(int depth) {
  const Move& move = plies_[size_t(depth)].move;
  const int16_t* from = accumulator(depth - 1);
  const uint8_t* was = states(depth - 1);
  int16_t* to = accumulator(depth);
  uint8_t* now = states(depth);
  // The cell states are kept beside the accumulators, one board a ply: the
  // child's is the parent's with the rectangle taken, so no cell of the
  // position is read here.
  std::copy(was, was + kStatesSize, now);
  if (move.is_pass()) {
    std::copy(from, from + 2 * shape_.hidden, to);
    return;
  }
  FeatureChanges moved;
  move_changes(was, now, move, plies_[size_t(depth)].mover, moved);
  kernels::PairChanges changes;
  changes.removed_both = moved.removed_both;
  changes.n_removed_both = moved.n_removed_both;
  for (int p = 0; p < 2; ++p) {
    changes.removed[p] = moved.removed[p];
    changes.n_removed[p] = moved.n_removed;
    changes.added[p] = moved.added[p];
    changes.n_added[p] = moved.n_added;
  }
  if (compact_rows())
    kernels::update_pair(isa_, from, to, ft_weight8_.data(), shape_.hidden, changes);
  else
    kernels::update_pair(isa_, from, to, ft_weight_.data(), shape_.hidden, changes);
}

void Evaluator::pop() {
  --depth_;
  computed_depth_ = std::min(computed_depth_, depth_);
  ++node_;
}

int Evaluator::evaluate(const Position& pos, const LeafMoves& moves) {
  return combine(pos, net_output(pos, moves.rectangles), moves.best_gain);
}

int Evaluator::evaluate_floor(const Position& pos) {
  return skip_gain_ >= 0 && !shape_.mobility ? combine(pos, net_output(pos, 0), 0) : kNoFloor;
}

int Evaluator::combine(const Position& pos, int64_t net, int best_gain) const {
  const int64_t skips = int64_t(skip_margin_) * pos.margin_for_side_to_move() + int64_t(skip_gain_) * best_gain;
  // Both in cells * kSumScale * kSkipScale, then to the search's 1/16 cells.
  const int64_t total = net * int64_t(kSkipScale) + skips * kSumScale;
  return int(rounded_div(total * kEvalScale, kSumScale * int64_t(kSkipScale)));
}

int64_t Evaluator::net_output(const Position& pos, int rectangles) {
  if (cached_node_ == node_) return cached_net_;
  bring_up_to_date();
  const int H = shape_.hidden, l1 = shape_.l1, l2 = shape_.l2;
  const int16_t* mine = accumulator(depth_) + size_t(pos.to_move()) * H;
  const int16_t* theirs = accumulator(depth_) + size_t(1 - pos.to_move()) * H;
  kernels::crelu(isa_, mine, input_.data(), H);
  kernels::crelu(isa_, theirs, input_.data() + H, H);
  input_[size_t(2 * H)] = pos.last_move_was_pass() ? 127 : 0;
  input_[size_t(2 * H + 1)] = pos.to_move() == kFirst ? 127 : 0;
  if (shape_.mobility) mobility_inputs<uint8_t>(rectangles, 127, input_.data() + 2 * H + kFlagInputs);
  const size_t k = size_t(shape_.bucket(pos.mushrooms_left(), pos.to_move() == kFirst));
  int32_t sums[64];  // L1, L2 <= 64, the model reader's limit
  kernels::dense_sparse(isa_, input_.data(), input_padded_,
                        l1_grouped_.data() + k * size_t(input_padded_) * kernels::chunked_outputs(l1),
                        kernels::chunked_outputs(l1), sums, l1_int16_groups_);
  kernels::rescaled_crelu(isa_, sums, l1_bias_.data() + k * l1, l1, kShift, hidden1_.data());
  // hidden1_ holds zeros past L1, as the padded inputs of l2's weights do.
  kernels::dense_sparse(isa_, hidden1_.data(), hidden1_padded_,
                        l2_grouped_.data() + k * size_t(hidden1_padded_) * kernels::chunked_outputs(l2),
                        kernels::chunked_outputs(l2), sums, l2_int16_groups_);
  kernels::rescaled_crelu(isa_, sums, l2_bias_.data() + k * l2, l2, kShift, hidden2_.data());
  cached_node_ = node_;
  int32_t out = 0;
  kernels::dense(isa_, hidden2_.data(), out_weight_.data() + k * hidden2_padded_, hidden2_padded_, 1, &out);
  return cached_net_ = out_bias_[k] + out;  // cells * kSumScale
}

float reference_output(const Network& m, const Position& pos, const LeafMoves& moves) {
  const Shape& x = m.shape;
  const int H = x.hidden;
  std::vector<float> acc(size_t(2) * H);
  for (int p = 0; p < 2; ++p) {
    float* a = acc.data() + size_t(p) * H;
    for (int h = 0; h < H; ++h) a[h] = m.ft_bias[size_t(h)];
    int features[kActiveFeatures];
    active_features(pos, Player(p), features);
    for (int f : features) {
      const float* row = m.ft_weight.data() + size_t(f) * H;
      for (int h = 0; h < H; ++h) a[h] += row[h];
    }
  }
  const auto clip = [](float v) { return std::min(std::max(v, 0.0f), 1.0f); };
  const int inputs = x.dense_inputs();
  std::vector<float> in(static_cast<size_t>(inputs));
  for (int h = 0; h < H; ++h) {
    in[size_t(h)] = clip(acc[size_t(pos.to_move()) * H + h]);
    in[size_t(H + h)] = clip(acc[size_t(1 - pos.to_move()) * H + h]);
  }
  in[size_t(2 * H)] = pos.last_move_was_pass() ? 1.0f : 0.0f;
  in[size_t(2 * H + 1)] = pos.to_move() == kFirst ? 1.0f : 0.0f;
  if (x.mobility) mobility_inputs(moves.rectangles, 1.0f, in.data() + 2 * H + kFlagInputs);
  const size_t k = size_t(x.bucket(pos.mushrooms_left(), pos.to_move() == kFirst));
  std::vector<float> h1(static_cast<size_t>(x.l1)), h2(static_cast<size_t>(x.l2));
  for (int j = 0; j < x.l1; ++j) {
    const size_t row = k * x.l1 + j;
    float s = m.l1_bias[row];
    for (int i = 0; i < inputs; ++i) s += m.l1_weight[row * inputs + i] * in[size_t(i)];
    h1[size_t(j)] = clip(s);
  }
  for (int j = 0; j < x.l2; ++j) {
    const size_t row = k * x.l2 + j;
    float s = m.l2_bias[row];
    for (int i = 0; i < x.l1; ++i) s += m.l2_weight[row * x.l1 + i] * h1[size_t(i)];
    h2[size_t(j)] = clip(s);
  }
  float y = m.out_bias[k];
  for (int j = 0; j < x.l2; ++j) y += m.out_weight[k * x.l2 + j] * h2[size_t(j)];
  return y + m.skip_margin * float(pos.margin_for_side_to_move()) + m.skip_gain * float(moves.best_gain);
}

}  // namespace mushroom::nnue
