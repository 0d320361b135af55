#include "mushroom/learned_evaluator.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MUSHROOM_EVAL_X86 1
#define MUSHROOM_EVAL_AVX2 __attribute__((target("avx2")))
#endif

namespace mushroom {

namespace {

int16_t to_int16(float v, float scale) { return int16_t(std::lround(v * scale)); }
int8_t to_int8(float v, float scale) { return int8_t(std::clamp<long>(std::lround(v * scale), -127, 127)); }
int32_t to_int32(float v, float scale) { return int32_t(std::lround(double(v) * scale)); }

// The dense layers' product scale: inputs in 0..127 (crelu's 1 is 127),
// weights times kDenseScale, so a sum is 127 * 64 times the float value.
constexpr int kShift = 6;  // log2(kDenseScale)
constexpr int64_t kSumScale = 127 * 64;

uint8_t crelu(int32_t v) { return uint8_t(std::clamp(v, 0, 127)); }
// A layer's sum back to the 0..127 scale, rounded (a floor would bias every
// unit down by half a step).
int32_t rescale(int32_t sum) { return (sum + (1 << (kShift - 1))) >> kShift; }

// Rounded a / b (b > 0), halves away from zero.
int64_t rounded_div(int64_t a, int64_t b) { return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b); }

int32_t dot_scalar(const uint8_t* x, const int8_t* w, int n) {
  int32_t s = 0;
  for (int i = 0; i < n; ++i) s += int32_t(x[i]) * int32_t(w[i]);
  return s;
}

#ifdef MUSHROOM_EVAL_X86
// n a multiple of 32; every x <= 127, so the pairwise int16 sums never saturate.
MUSHROOM_EVAL_AVX2 int32_t dot_avx2(const uint8_t* x, const int8_t* w, int n) {
  __m256i sum = _mm256_setzero_si256();
  const __m256i ones = _mm256_set1_epi16(1);
  for (int i = 0; i < n; i += 32) {
    const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + i));
    sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
  }
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return _mm_cvtsi128_si32(s);
}

// to = from - the removed rows + the added rows (n a multiple of 16), one
// register per 16 units: each accumulator value is loaded and stored once.
MUSHROOM_EVAL_AVX2 void change_avx2(const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed,
                                    int n_removed, const int* added, int n_added) {
  for (int i = 0; i < n; i += 16) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i));
    for (int k = 0; k < n_removed; ++k)
      v = _mm256_sub_epi16(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + size_t(removed[k]) * n + i)));
    for (int k = 0; k < n_added; ++k)
      v = _mm256_add_epi16(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + size_t(added[k]) * n + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i), v);
  }
}

// out[j] = x . w[j] for n_out rows of `stride` bytes (a multiple of 32):
// four rows share one horizontal reduction.
MUSHROOM_EVAL_AVX2 void dense_avx2(const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
  const __m256i ones = _mm256_set1_epi16(1);
  int j = 0;
  for (; j + 4 <= n_out; j += 4) {
    __m256i sum[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (int i = 0; i < stride; i += 32) {
      const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
      for (int k = 0; k < 4; ++k) {
        const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + size_t(j + k) * stride + i));
        sum[k] = _mm256_add_epi32(sum[k], _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
      }
    }
    // Per 128-bit lane, [row j, j+1, j+2, j+3] partial sums; then the lanes added.
    const __m256i pairs = _mm256_hadd_epi32(_mm256_hadd_epi32(sum[0], sum[1]), _mm256_hadd_epi32(sum[2], sum[3]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                     _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1)));
  }
  for (; j < n_out; ++j) out[j] = dot_avx2(x, w + size_t(j) * stride, stride);
}

// 16 accumulator values clamped to 0..127.
MUSHROOM_EVAL_AVX2 __m256i clamped16_avx2(const int16_t* p) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), _mm256_set1_epi16(127));
}

// out[i] = crelu(acc[i]) for n a multiple of 32.
MUSHROOM_EVAL_AVX2 void crelu_avx2(const int16_t* acc, uint8_t* out, int n) {
  for (int i = 0; i < n; i += 32) {
    const __m256i a = clamped16_avx2(acc + i), b = clamped16_avx2(acc + i + 16);
    // packus works within 128-bit lanes; the permute puts the quarters back in order.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
  }
}

bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }
#else
bool cpu_has_avx2() { return false; }
#endif

// out[j] = x . w[j] for n_out int8 rows of `stride` bytes (a multiple of 32).
void dense([[maybe_unused]] bool simd, const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
#ifdef MUSHROOM_EVAL_X86
  if (simd) return dense_avx2(x, w, stride, n_out, out);
#endif
  for (int j = 0; j < n_out; ++j) out[j] = dot_scalar(x, w + size_t(j) * stride, stride);
}

}  // namespace

static_assert(kRows * kCols == 170 && kEvalActiveFeatures == kCells + kRows * (kCols - 2) + kCols * (kRows - 2),
              "learned_eval_model.h's feature counts are for the 10x17 board");

namespace {
constexpr int kMine = 10, kTheirs = 11;  // cell states after a move, for the mover and its opponent

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

LearnedEvaluator::LearnedEvaluator(const LearnedEvalModel& m, bool use_simd)
    : hidden_(m.hidden), l1_(m.l1), l2_(m.l2), phase_buckets_(m.phase_buckets), seat_buckets_(m.seat_buckets),
      mobility_(m.mobility), input_padded_((m.dense_inputs() + 31) / 32 * 32), hidden1_padded_((m.l1 + 31) / 32 * 32),
      simd_(use_simd && cpu_has_avx2()) {
  ft_weight_.resize(m.ft_weight.size());
  for (size_t i = 0; i < m.ft_weight.size(); ++i) ft_weight_[i] = to_int16(m.ft_weight[i], kFtScale);
  ft_bias_.resize(m.ft_bias.size());
  for (size_t i = 0; i < m.ft_bias.size(); ++i) ft_bias_[i] = to_int16(m.ft_bias[i], kFtScale);
  const int inputs = m.dense_inputs();
  const size_t S = size_t(m.stacks());
  // Each stack's rows one after another, padded like a single stack's.
  l1_weight_.assign(S * l1_ * input_padded_, 0);
  for (size_t j = 0; j < S * l1_; ++j)
    for (int i = 0; i < inputs; ++i)
      l1_weight_[j * input_padded_ + i] = to_int8(m.l1_weight[j * inputs + i], kDenseScale);
  l1_bias_.resize(S * l1_);
  for (size_t j = 0; j < S * l1_; ++j) l1_bias_[j] = to_int32(m.l1_bias[j], float(kSumScale));
  l2_weight_.assign(S * l2_ * hidden1_padded_, 0);
  for (size_t j = 0; j < S * l2_; ++j)
    for (int i = 0; i < l1_; ++i)
      l2_weight_[j * hidden1_padded_ + i] = to_int8(m.l2_weight[j * l1_ + i], kDenseScale);
  l2_bias_.resize(S * l2_);
  for (size_t j = 0; j < S * l2_; ++j) l2_bias_[j] = to_int32(m.l2_bias[j], float(kSumScale));
  out_weight_.resize(m.out_weight.size());
  for (size_t i = 0; i < m.out_weight.size(); ++i) out_weight_[i] = to_int8(m.out_weight[i], kDenseScale);
  out_bias_.resize(S);
  for (size_t k = 0; k < S; ++k) out_bias_[k] = to_int32(m.out_bias[k], float(kSumScale));
  skip_margin_ = to_int32(m.skip_margin, kSkipScale);
  skip_gain_ = to_int32(m.skip_gain, kSkipScale);
  stack_.assign(size_t(2) * hidden_ * 128, 0);
  input_.assign(size_t(input_padded_), 0);
  hidden1_.assign(size_t(hidden1_padded_), 0);  // zeros past l1 for the padded rows
  hidden2_.assign(size_t(l2_), 0);
}

void LearnedEvaluator::apply_changes(const int16_t* from, int16_t* to, const int* removed, int n_removed,
                                     const int* added, int n_added) const {
#ifdef MUSHROOM_EVAL_X86
  if (simd_) return change_avx2(from, to, ft_weight_.data(), hidden_, removed, n_removed, added, n_added);
#endif
  std::copy(from, from + hidden_, to);
  for (int k = 0; k < n_removed; ++k) {
    const int16_t* row = ft_weight_.data() + size_t(removed[k]) * hidden_;
    for (int h = 0; h < hidden_; ++h) to[h] = int16_t(to[h] - row[h]);
  }
  for (int k = 0; k < n_added; ++k) {
    const int16_t* row = ft_weight_.data() + size_t(added[k]) * hidden_;
    for (int h = 0; h < hidden_; ++h) to[h] = int16_t(to[h] + row[h]);
  }
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
  ++node_;
  refresh(root, accumulator(0));
}

void LearnedEvaluator::push(const Position& pos, const Move& move) {
  if (size_t(depth_ + 2) * 2 * hidden_ > stack_.size()) stack_.resize(stack_.size() * 2);
  const int16_t* from = accumulator(depth_);
  int16_t* to = accumulator(++depth_);
  ++node_;
  if (move.is_pass()) {
    std::copy(from, from + 2 * hidden_, to);
    return;
  }
  // Every cell of the rectangle ends empty and owned by the mover. The
  // triples that change are those with a cell in the rectangle: in its rows,
  // starting up to two columns left of it; in its columns, up to two rows above.
  const Player mover = pos.to_move();
  const int r_lo = std::max(0, int(move.r1) - 2), r_hi = std::min(kRows - 1, int(move.r2) + 2);
  const int c_lo = std::max(0, int(move.c1) - 2), c_hi = std::min(kCols - 1, int(move.c2) + 2);
  // The states around the rectangle, before and after, for both views: one
  // read of the position per cell, the second view swapping mine and theirs.
  uint8_t before[2][kRows][kCols], after[2][kRows][kCols];
  const auto other_view = [](uint8_t state) { return state < kMine ? state : uint8_t(kMine + kTheirs - state); };
  const uint8_t taken = uint8_t(mover == kFirst ? kMine : kTheirs);  // in the first player's view
  for (int r = r_lo; r <= r_hi; ++r)
    for (int c = c_lo; c <= c_hi; ++c) {
      const uint8_t first = uint8_t(learned_eval_cell_state(pos, r, c, kFirst));
      const bool inside = r >= move.r1 && r <= move.r2 && c >= move.c1 && c <= move.c2;
      before[0][r][c] = first;
      after[0][r][c] = inside ? taken : first;
      before[1][r][c] = other_view(before[0][r][c]);
      after[1][r][c] = other_view(after[0][r][c]);
    }
  for (int p = 0; p < 2; ++p) {
    const auto& was = before[p];
    const auto& now = after[p];
    // The features that change, then one pass over the accumulator.
    int removed[kEvalActiveFeatures], added[kEvalActiveFeatures], n = 0;
    const auto change = [&](int before_feature, int after_feature) {
      if (before_feature == after_feature) return;
      removed[n] = before_feature;
      added[n++] = after_feature;
    };
    for (int r = move.r1; r <= move.r2; ++r)
      for (int c = move.c1; c <= move.c2; ++c) {
        const int cell = (r * kCols + c) * kEvalCellStates;
        change(cell + was[r][c], cell + now[r][c]);
      }
    for (int r = move.r1; r <= move.r2; ++r)
      for (int c = c_lo; c <= std::min(kCols - 3, int(move.c2)); ++c)
        change(learned_eval_row_triple(was[r][c], was[r][c + 1], was[r][c + 2]),
               learned_eval_row_triple(now[r][c], now[r][c + 1], now[r][c + 2]));
    for (int c = move.c1; c <= move.c2; ++c)
      for (int r = r_lo; r <= std::min(kRows - 3, int(move.r2)); ++r)
        change(learned_eval_column_triple(was[r][c], was[r + 1][c], was[r + 2][c]),
               learned_eval_column_triple(now[r][c], now[r + 1][c], now[r + 2][c]));
    apply_changes(from + size_t(p) * hidden_, to + size_t(p) * hidden_, removed, n, added, n);
  }
}

void LearnedEvaluator::pop() {
  --depth_;
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
  const int16_t* mine = accumulator(depth_) + size_t(pos.to_move()) * hidden_;
  const int16_t* theirs = accumulator(depth_) + size_t(1 - pos.to_move()) * hidden_;
  int h0 = 0;  // the units crelu'd with SIMD
#ifdef MUSHROOM_EVAL_X86
  if (simd_) {
    h0 = hidden_ / 32 * 32;
    crelu_avx2(mine, input_.data(), h0);
    crelu_avx2(theirs, input_.data() + hidden_, h0);
  }
#endif
  for (int h = h0; h < hidden_; ++h) {
    input_[size_t(h)] = crelu(mine[h]);
    input_[size_t(hidden_ + h)] = crelu(theirs[h]);
  }
  input_[size_t(2 * hidden_)] = pos.last_move_was_pass() ? 127 : 0;
  input_[size_t(2 * hidden_ + 1)] = pos.to_move() == kFirst ? 127 : 0;
  if (mobility_) learned_eval_mobility<uint8_t>(rectangles, 127, input_.data() + 2 * hidden_ + kEvalFlags);
  const size_t k = size_t(
      learned_eval_bucket(phase_buckets_, seat_buckets_, pos.mushrooms_left(), pos.to_move() == kFirst));
  int32_t sums[64];  // L1, L2 <= 64, the model reader's limit
  dense(simd_, input_.data(), l1_weight_.data() + k * l1_ * input_padded_, input_padded_, l1_, sums);
  for (int j = 0; j < l1_; ++j) hidden1_[size_t(j)] = crelu(rescale(l1_bias_[k * l1_ + j] + sums[j]));
  // hidden1_ holds zeros past L1, as the padded rows of l2's weights do.
  dense(simd_, hidden1_.data(), l2_weight_.data() + k * l2_ * hidden1_padded_, hidden1_padded_, l2_, sums);
  for (int j = 0; j < l2_; ++j) hidden2_[size_t(j)] = crelu(rescale(l2_bias_[k * l2_ + j] + sums[j]));
  cached_node_ = node_;
  return cached_net_ = out_bias_[k] + dot_scalar(hidden2_.data(), out_weight_.data() + k * l2_, l2_);  // cells * kSumScale
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
