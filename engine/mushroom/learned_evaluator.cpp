#include "mushroom/learned_evaluator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mushroom {

namespace {

int16_t to_int16(float v, float scale) { return int16_t(std::lround(v * scale)); }
int8_t to_int8(float v, float scale) { return int8_t(std::clamp<long>(std::lround(v * scale), -127, 127)); }
int32_t to_int32(float v, float scale) { return int32_t(std::lround(double(v) * scale)); }

// The dense layers' product scale: inputs in 0..127 (crelu's 1 is 127),
// weights times kDenseScale, so a sum is 127 * 64 times the float value.
constexpr int kShift = 6;  // log2(kDenseScale)
constexpr int64_t kSumScale = 127 * 64;

// A layer's sums go back to the 0..127 scale rounded by eval_kernels::
// rescaled_crelu (a floor would bias every unit down by half a step).

// Rounded a / b (b > 0), halves away from zero.
int64_t rounded_div(int64_t a, int64_t b) { return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b); }

}  // namespace

static_assert(kRows * kCols == 170 && kEvalActiveFeatures == kCells + kRows * (kCols - 2) + kCols * (kRows - 2),
              "learned_eval_model.h's feature counts are for the 10x17 board");

namespace {
constexpr int kMine = 10, kTheirs = 11;  // cell states after a move, for the mover and its opponent

// A cell's state in the other player's view: kMine and kTheirs swap, the
// rest stay (s ^ 1 for 10 and 11, s for 0..9).
constexpr int other_view_state(int s) { return s ^ ((s + 6) >> 4); }
static_assert(other_view_state(kMine) == kTheirs && other_view_state(kTheirs) == kMine && other_view_state(9) == 9 &&
              other_view_state(0) == 0 && other_view_state(8) == 8);

// A triple's index s0 * 144 + s1 * 12 + s2 in the other player's view.
struct OtherViewTriples {
  uint16_t at[kEvalTripleFeatures];
};
constexpr OtherViewTriples make_other_view_triples() {
  OtherViewTriples t{};
  for (int i = 0; i < kEvalTripleFeatures; ++i) {
    const int s0 = i / (kEvalCellStates * kEvalCellStates), s1 = i / kEvalCellStates % kEvalCellStates,
              s2 = i % kEvalCellStates;
    t.at[i] = uint16_t((other_view_state(s0) * kEvalCellStates + other_view_state(s1)) * kEvalCellStates +
                       other_view_state(s2));
  }
  return t;
}
constexpr OtherViewTriples kOtherViewTriple = make_other_view_triples();

// The states of every cell for one perspective.
struct CellStates {
  uint8_t s[kRows][kCols];
};

void fill_states(const Position& pos, Player p, CellStates& out) {
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) out.s[r][c] = uint8_t(learned_eval_cell_state(pos, r, c, p));
}
}  // namespace

int learned_eval_cell_state(const Position& pos, int r, int c, Player p) {
  const int d = pos.digit(r, c);
  if (d) return d - 1;
  const Owner o = pos.owner(r, c);
  return o == Owner::kNone ? 9 : (int(o) - 1 == int(p) ? kMine : kTheirs);
}

int learned_eval_feature(const Position& pos, int r, int c, Player p) {
  return (r * kCols + c) * kEvalCellStates + learned_eval_cell_state(pos, r, c, p);
}

void learned_eval_features(const Position& pos, Player p, int* out) {
  CellStates st;
  fill_states(pos, p, st);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) *out++ = (r * kCols + c) * kEvalCellStates + st.s[r][c];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c + 2 < kCols; ++c) *out++ = learned_eval_row_triple(st.s[r][c], st.s[r][c + 1], st.s[r][c + 2]);
  for (int c = 0; c < kCols; ++c)
    for (int r = 0; r + 2 < kRows; ++r)
      *out++ = learned_eval_column_triple(st.s[r][c], st.s[r + 1][c], st.s[r + 2][c]);
}

namespace {
eval_kernels::Isa checked_isa(eval_kernels::Isa isa) {
  const eval_kernels::Isa best = eval_kernels::best_isa();
  if (int(isa) > int(best))
    throw std::invalid_argument(std::string("the learned evaluation's ") + eval_kernels::isa_name(isa) +
                                " kernels need a CPU that has them; this one runs " + eval_kernels::isa_name(best));
  return isa;
}

// A dense layer's float weights w[stack][output][input] as int8 in
// eval_kernels::dense_sparse's layout, stack by stack, each stack's inputs
// padded with zeros to `stride`: row-major int8 first, then regrouped, which
// is all the search reads. Returns the int16 groups every stack allows
// (eval_kernels::int16_groups_for).
int grouped_dense_weights(const std::vector<float>& w, size_t stacks, int outputs, int inputs, int stride,
                          std::vector<int8_t>& grouped) {
  const size_t rows = stacks * size_t(outputs), stack_size = size_t(stride) * size_t(eval_kernels::chunked_outputs(outputs));
  std::vector<int8_t> row_major(rows * size_t(stride), 0);
  for (size_t j = 0; j < rows; ++j)
    for (int i = 0; i < inputs; ++i) row_major[j * stride + i] = to_int8(w[j * inputs + i], kDenseScale);
  grouped.assign(stacks * stack_size, 0);
  int int16_groups = eval_kernels::kMaxInt16Groups;
  for (size_t k = 0; k < stacks; ++k) {
    int8_t* stack = grouped.data() + k * stack_size;
    eval_kernels::chunked_dense_weights(row_major.data() + k * size_t(outputs) * size_t(stride), stride, outputs, stack);
    int16_groups = std::min(int16_groups, eval_kernels::int16_groups_for(stack, stride, eval_kernels::chunked_outputs(outputs)));
  }
  return int16_groups;
}
}  // namespace

LearnedEvaluator::LearnedEvaluator(const LearnedEvalModel& m, bool use_simd)
    : LearnedEvaluator(m, use_simd ? eval_kernels::default_isa() : eval_kernels::Isa::kScalar) {}

LearnedEvaluator::LearnedEvaluator(const LearnedEvalModel& m, eval_kernels::Isa isa, FeatureRows rows)
    : hidden_(m.hidden), l1_(m.l1), l2_(m.l2), phase_buckets_(m.phase_buckets), seat_buckets_(m.seat_buckets),
      mobility_(m.mobility), input_padded_((m.dense_inputs() + 31) / 32 * 32), hidden1_padded_((m.l1 + 31) / 32 * 32),
      hidden2_padded_((m.l2 + 31) / 32 * 32),
      isa_(checked_isa(isa)) {
  ft_weight_.resize(m.ft_weight.size());
  for (size_t i = 0; i < m.ft_weight.size(); ++i) ft_weight_[i] = to_int16(m.ft_weight[i], kFtScale);
  const bool fits_int8 = std::all_of(ft_weight_.begin(), ft_weight_.end(), [](int16_t w) { return w >= -128 && w <= 127; });
  if (rows == FeatureRows::kCompactWhenExact && fits_int8) {
    ft_weight8_.assign(ft_weight_.begin(), ft_weight_.end());
    std::vector<int16_t>().swap(ft_weight_);
  }
  ft_bias_.resize(m.ft_bias.size());
  for (size_t i = 0; i < m.ft_bias.size(); ++i) ft_bias_[i] = to_int16(m.ft_bias[i], kFtScale);
  const int inputs = m.dense_inputs();
  const size_t S = size_t(m.stacks());
  // Each stack's rows one after another, padded like a single stack's.
  l1_int16_groups_ = grouped_dense_weights(m.l1_weight, S, l1_, inputs, input_padded_, l1_grouped_);
  l1_bias_.resize(S * l1_);
  for (size_t j = 0; j < S * l1_; ++j) l1_bias_[j] = to_int32(m.l1_bias[j], float(kSumScale));
  l2_int16_groups_ = grouped_dense_weights(m.l2_weight, S, l2_, l1_, hidden1_padded_, l2_grouped_);
  l2_bias_.resize(S * l2_);
  for (size_t j = 0; j < S * l2_; ++j) l2_bias_[j] = to_int32(m.l2_bias[j], float(kSumScale));
  // One row a stack, padded with zeros to hidden2_padded_ (eval_kernels::dense's stride).
  out_weight_.assign(S * size_t(hidden2_padded_), 0);
  for (size_t k = 0; k < S; ++k)
    for (int i = 0; i < l2_; ++i)
      out_weight_[k * hidden2_padded_ + i] = to_int8(m.out_weight[k * l2_ + i], kDenseScale);
  out_bias_.resize(S);
  for (size_t k = 0; k < S; ++k) out_bias_[k] = to_int32(m.out_bias[k], float(kSumScale));
  skip_margin_ = to_int32(m.skip_margin, kSkipScale);
  skip_gain_ = to_int32(m.skip_gain, kSkipScale);
  stack_.assign(size_t(2) * hidden_ * 128, 0);
  states_.assign(size_t(kStatesSize) * 128, 0);
  plies_.assign(128, Ply{});
  input_.assign(size_t(input_padded_), 0);
  hidden1_.assign(size_t(hidden1_padded_), 0);  // zeros past l1 for the padded rows
  hidden2_.assign(size_t(hidden2_padded_), 0);  // zeros past L2, as out's padded weights
}

void LearnedEvaluator::apply_changes(const int16_t* from, int16_t* to, const int* removed, int n_removed,
                                     const int* added, int n_added) const {
  if (compact_rows())
    eval_kernels::update(isa_, from, to, ft_weight8_.data(), hidden_, removed, n_removed, added, n_added);
  else
    eval_kernels::update(isa_, from, to, ft_weight_.data(), hidden_, removed, n_removed, added, n_added);
}

void LearnedEvaluator::refresh(const Position& pos, int16_t* acc) const {
  int features[kEvalActiveFeatures];
  for (int p = 0; p < 2; ++p) {
    learned_eval_features(pos, Player(p), features);
    apply_changes(ft_bias_.data(), acc + size_t(p) * hidden_, nullptr, 0, features, kEvalActiveFeatures);
  }
}

void LearnedEvaluator::set_root(const Position& root) {
  depth_ = 0;
  computed_depth_ = 0;
  ++node_;
  refresh(root, accumulator(0));
  uint8_t* board = states(0);
  std::fill(board, board + kStatesSize, uint8_t(0));
  CellStates st;
  fill_states(root, kFirst, st);
  for (int r = 0; r < kRows; ++r) std::copy(st.s[r], st.s[r] + kCols, board + r * kStateStride);
}

void LearnedEvaluator::push(const Position& pos, const Move& move) {
  if (size_t(depth_ + 2) * 2 * hidden_ > stack_.size()) {
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

void LearnedEvaluator::bring_up_to_date() {
  while (computed_depth_ < depth_) compute_ply(++computed_depth_);
}

void LearnedEvaluator::compute_ply(int depth) {
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
    std::copy(from, from + 2 * hidden_, to);
    return;
  }
  // Every cell of the rectangle ends empty and owned by the mover: kMine in
  // the mover's view, so in the first player's view kMine when the first
  // player moves, else kTheirs.
  const uint8_t taken = uint8_t(plies_[size_t(depth)].mover == kFirst ? kMine : kTheirs);
  for (int r = move.r1; r <= move.r2; ++r) std::fill_n(now + r * kStateStride + move.c1, move.c2 - move.c1 + 1, taken);

  // The features that change, in both views at once (the second view's
  // states are the first's with kMine and kTheirs swapped), then one pass
  // over both accumulators. A feature of cells nobody owns has the same
  // index in both views: its row is removed from both at one read.
  int removed_both[kEvalActiveFeatures], removed[2][kEvalActiveFeatures], added[2][kEvalActiveFeatures];
  int n_both = 0, n_removed = 0, n_added = 0;
  const auto change = [&](int before0, int after0, int before1, int after1) {
    if (before0 == after0) return;  // then before1 == after1 too: the swap is one-to-one
    const bool same = before0 == before1;
    removed_both[n_both] = before0;
    removed[0][n_removed] = before0;
    removed[1][n_removed] = before1;
    n_both += same;
    n_removed += !same;
    added[0][n_added] = after0;
    added[1][n_added++] = after1;
  };
  const auto at = [](const uint8_t* board, int r, int c) { return int(board[r * kStateStride + c]); };
  for (int r = move.r1; r <= move.r2; ++r)
    for (int c = move.c1; c <= move.c2; ++c) {
      const int cell = (r * kCols + c) * kEvalCellStates, before = at(was, r, c), after = at(now, r, c);
      change(cell + before, cell + after, cell + other_view_state(before), cell + other_view_state(after));
    }
  // The triples that change are those with a cell in the rectangle: in its
  // rows, starting up to two columns left of it; in its columns, up to two
  // rows above. Along each line the three states roll on one cell a step.
  const auto line = [&](int base, const uint8_t* w, const uint8_t* n, int step, int triples) {
    int w0 = w[0], w1 = w[step], n0 = n[0], n1 = n[step];
    for (int i = 0; i < triples; ++i) {
      const int w2 = w[(i + 2) * step], n2 = n[(i + 2) * step];
      const int before = (w0 * kEvalCellStates + w1) * kEvalCellStates + w2;
      const int after = (n0 * kEvalCellStates + n1) * kEvalCellStates + n2;
      change(base + before, base + after, base + kOtherViewTriple.at[before], base + kOtherViewTriple.at[after]);
      w0 = w1, w1 = w2, n0 = n1, n1 = n2;
    }
  };
  const int r_lo = std::max(0, int(move.r1) - 2), c_lo = std::max(0, int(move.c1) - 2);
  const int row_last = std::min(kCols - 3, int(move.c2)), column_last = std::min(kRows - 3, int(move.r2));
  for (int r = move.r1; r <= move.r2; ++r)
    line(kEvalRowTripleBase, was + r * kStateStride + c_lo, now + r * kStateStride + c_lo, 1, row_last - c_lo + 1);
  for (int c = move.c1; c <= move.c2; ++c)
    line(kEvalColumnTripleBase, was + r_lo * kStateStride + c, now + r_lo * kStateStride + c, kStateStride,
         column_last - r_lo + 1);
  eval_kernels::PairChanges changes;
  changes.removed_both = removed_both;
  changes.n_removed_both = n_both;
  for (int p = 0; p < 2; ++p) {
    changes.removed[p] = removed[p];
    changes.n_removed[p] = n_removed;
    changes.added[p] = added[p];
    changes.n_added[p] = n_added;
  }
  if (compact_rows())
    eval_kernels::update_pair(isa_, from, to, ft_weight8_.data(), hidden_, changes);
  else
    eval_kernels::update_pair(isa_, from, to, ft_weight_.data(), hidden_, changes);
}

void LearnedEvaluator::pop() {
  --depth_;
  computed_depth_ = std::min(computed_depth_, depth_);
  ++node_;
}

int LearnedEvaluator::evaluate(const Position& pos, const LeafMoves& moves) {
  return combine(pos, net_output(pos, moves.rectangles), moves.best_gain);
}

int LearnedEvaluator::evaluate_floor(const Position& pos) {
  return skip_gain_ >= 0 && !mobility_ ? combine(pos, net_output(pos, 0), 0) : kNoFloor;
}

int LearnedEvaluator::combine(const Position& pos, int64_t net, int best_gain) const {
  const int64_t skips = int64_t(skip_margin_) * pos.margin_for_side_to_move() + int64_t(skip_gain_) * best_gain;
  // Both in cells * kSumScale * kSkipScale, then to the search's 1/16 cells.
  const int64_t total = net * int64_t(kSkipScale) + skips * kSumScale;
  return int(rounded_div(total * kEvalScale, kSumScale * int64_t(kSkipScale)));
}

int64_t LearnedEvaluator::net_output(const Position& pos, int rectangles) {
  if (cached_node_ == node_) return cached_net_;
  bring_up_to_date();
  const int16_t* mine = accumulator(depth_) + size_t(pos.to_move()) * hidden_;
  const int16_t* theirs = accumulator(depth_) + size_t(1 - pos.to_move()) * hidden_;
  eval_kernels::crelu(isa_, mine, input_.data(), hidden_);
  eval_kernels::crelu(isa_, theirs, input_.data() + hidden_, hidden_);
  input_[size_t(2 * hidden_)] = pos.last_move_was_pass() ? 127 : 0;
  input_[size_t(2 * hidden_ + 1)] = pos.to_move() == kFirst ? 127 : 0;
  if (mobility_) learned_eval_mobility<uint8_t>(rectangles, 127, input_.data() + 2 * hidden_ + kEvalFlags);
  const size_t k = size_t(
      learned_eval_bucket(phase_buckets_, seat_buckets_, pos.mushrooms_left(), pos.to_move() == kFirst));
  int32_t sums[64];  // L1, L2 <= 64, the model reader's limit
  eval_kernels::dense_sparse(isa_, input_.data(), input_padded_,
                             l1_grouped_.data() + k * size_t(input_padded_) * eval_kernels::chunked_outputs(l1_),
                             eval_kernels::chunked_outputs(l1_), sums, l1_int16_groups_);
  eval_kernels::rescaled_crelu(isa_, sums, l1_bias_.data() + k * l1_, l1_, kShift, hidden1_.data());
  // hidden1_ holds zeros past L1, as the padded inputs of l2's weights do.
  eval_kernels::dense_sparse(isa_, hidden1_.data(), hidden1_padded_,
                             l2_grouped_.data() + k * size_t(hidden1_padded_) * eval_kernels::chunked_outputs(l2_),
                             eval_kernels::chunked_outputs(l2_), sums, l2_int16_groups_);
  eval_kernels::rescaled_crelu(isa_, sums, l2_bias_.data() + k * l2_, l2_, kShift, hidden2_.data());
  cached_node_ = node_;
  int32_t out = 0;
  eval_kernels::dense(isa_, hidden2_.data(), out_weight_.data() + k * hidden2_padded_, hidden2_padded_, 1, &out);
  return cached_net_ = out_bias_[k] + out;  // cells * kSumScale
}

float LearnedEvaluator::reference_output(const LearnedEvalModel& m, const Position& pos, const LeafMoves& moves) {
  const int H = m.hidden;
  std::vector<float> acc(size_t(2) * H);
  for (int p = 0; p < 2; ++p) {
    float* a = acc.data() + size_t(p) * H;
    for (int h = 0; h < H; ++h) a[h] = m.ft_bias[size_t(h)];
    int features[kEvalActiveFeatures];
    learned_eval_features(pos, Player(p), features);
    for (int f : features) {
      const float* row = m.ft_weight.data() + size_t(f) * H;
      for (int h = 0; h < H; ++h) a[h] += row[h];
    }
  }
  const auto clip = [](float v) { return std::min(std::max(v, 0.0f), 1.0f); };
  const int inputs = m.dense_inputs();
  std::vector<float> x(static_cast<size_t>(inputs));
  for (int h = 0; h < H; ++h) {
    x[size_t(h)] = clip(acc[size_t(pos.to_move()) * H + h]);
    x[size_t(H + h)] = clip(acc[size_t(1 - pos.to_move()) * H + h]);
  }
  x[size_t(2 * H)] = pos.last_move_was_pass() ? 1.0f : 0.0f;
  x[size_t(2 * H + 1)] = pos.to_move() == kFirst ? 1.0f : 0.0f;
  if (m.mobility) learned_eval_mobility(moves.rectangles, 1.0f, x.data() + 2 * H + kEvalFlags);
  const size_t k = size_t(m.bucket(pos.mushrooms_left(), pos.to_move() == kFirst));
  std::vector<float> h1(static_cast<size_t>(m.l1)), h2(static_cast<size_t>(m.l2));
  for (int j = 0; j < m.l1; ++j) {
    const size_t row = k * m.l1 + j;
    float s = m.l1_bias[row];
    for (int i = 0; i < inputs; ++i) s += m.l1_weight[row * inputs + i] * x[size_t(i)];
    h1[size_t(j)] = clip(s);
  }
  for (int j = 0; j < m.l2; ++j) {
    const size_t row = k * m.l2 + j;
    float s = m.l2_bias[row];
    for (int i = 0; i < m.l1; ++i) s += m.l2_weight[row * m.l1 + i] * h1[size_t(i)];
    h2[size_t(j)] = clip(s);
  }
  float y = m.out_bias[k];
  for (int j = 0; j < m.l2; ++j) y += m.out_weight[k * m.l2 + j] * h2[size_t(j)];
  return y + m.skip_margin * float(pos.margin_for_side_to_move()) + m.skip_gain * float(moves.best_gain);
}

}  // namespace mushroom
