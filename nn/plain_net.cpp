#include "nn/plain_net.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "nn/features.h"

// The convolution kernels run at Eigen's speed only with GCC's -O3 loop
// work (complete unrolling and SLP vectorization of the accumulator block);
// at -O2, the judge's level, they take twice as long. In the exported bot
// this applies to everything after this point.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

namespace mushroom::nn {

namespace {

constexpr int kPadW = kCols + 2;
constexpr int kPadH = kRows + 2;
constexpr int kPadCells = kPadW * kPadH;
// Activation arrays hold this many cells: a group of cells at the end of
// the last row reads (and discards) a few cells past the grid.
constexpr int kArrayCells = kPadCells + 8;
constexpr int pad_index(int cell) { return (cell / kCols + 1) * kPadW + cell % kCols + 1; }

PlainNet::Conv make_conv(const Tensor& w, const Tensor& b) {
  PlainNet::Conv c;
  c.out = int(w.shape[0]);
  c.in = int(w.shape[1]);
  c.w.resize(size_t(9) * c.in * c.out);
  for (int o = 0; o < c.out; ++o)
    for (int i = 0; i < c.in; ++i)
      for (int k = 0; k < 9; ++k) c.w[(size_t(k) * c.in + i) * c.out + o] = w.data[(size_t(o) * c.in + i) * 9 + k];
  c.bias = b.data;
  return c;
}

// LibTorch's [out, in] (or [out, in, 1, 1]) weight, transposed to [in][out].
PlainNet::Linear make_linear(const Tensor& w, const Tensor* b) {
  PlainNet::Linear l;
  l.out = int(w.shape[0]);
  l.in = int(w.numel() / w.shape[0]);
  l.w.resize(size_t(l.in) * l.out);
  for (int o = 0; o < l.out; ++o)
    for (int i = 0; i < l.in; ++i) l.w[size_t(i) * l.out + o] = w.data[size_t(o) * l.in + i];
  if (b) l.bias = b->data;
  return l;
}

void apply_linear(const PlainNet::Linear& l, const float* in, float* out) {
  for (int o = 0; o < l.out; ++o) out[o] = l.bias.empty() ? 0.0f : l.bias[o];
  for (int i = 0; i < l.in; ++i) {
    const float a = in[i];
    const float* w = &l.w[size_t(i) * l.out];
    for (int o = 0; o < l.out; ++o) out[o] += a * w[o];
  }
}

// A run of up to kGroup adjacent output cells (consecutive in the padded
// grid) of a 3x3 convolution with OUT output channels known at compile
// time. The accumulators live in registers; several cells at once share
// each weight load and give the multiply-adds independent chains (one cell
// alone is bound by the add latency, not the arithmetic).
#if defined(__AVX512F__)
constexpr int kGroup = 4;
#else
constexpr int kGroup = 2;
#endif
template <int OUT>
void conv_cells_fixed(const float* in, int in_ch, int count, const int* offsets, const float* w, const float* bias,
                      float* out) {
  float acc[kGroup][OUT];
  for (int j = 0; j < kGroup; ++j)
    for (int o = 0; o < OUT; ++o) acc[j][o] = bias[o];
  for (int k = 0; k < 9; ++k) {
    const float* src = in + offsets[k] * in_ch;
    const float* wk = w + size_t(k) * in_ch * OUT;
    for (int i = 0; i < in_ch; ++i) {
      const float* wi = wk + size_t(i) * OUT;
      for (int j = 0; j < kGroup; ++j) {
        const float a = src[j * in_ch + i];
        for (int o = 0; o < OUT; ++o) acc[j][o] += a * wi[o];
      }
    }
  }
  for (int j = 0; j < count; ++j)
    for (int o = 0; o < OUT; ++o) out[j * OUT + o] = acc[j][o];
}

// One cell, skipping zero inputs: for the sparse one-hot input planes.
template <int OUT>
void conv_cell_sparse(const float* in, int in_ch, const int* offsets, const float* w, const float* bias, float* out) {
  float acc[OUT];
  for (int o = 0; o < OUT; ++o) acc[o] = bias[o];
  for (int k = 0; k < 9; ++k) {
    const float* src = in + offsets[k] * in_ch;
    const float* wk = w + size_t(k) * in_ch * OUT;
    for (int i = 0; i < in_ch; ++i) {
      const float a = src[i];
      if (a == 0.0f) continue;
      const float* wi = wk + size_t(i) * OUT;
      for (int o = 0; o < OUT; ++o) acc[o] += a * wi[o];
    }
  }
  for (int o = 0; o < OUT; ++o) out[o] = acc[o];
}

void conv_cell_any(const float* in, int in_ch, int out_ch, const int* offsets, const float* w, const float* bias,
                   float* out) {
  for (int o = 0; o < out_ch; ++o) out[o] = bias[o];
  for (int k = 0; k < 9; ++k) {
    const float* src = in + offsets[k] * in_ch;
    const float* wk = w + size_t(k) * in_ch * out_ch;
    for (int i = 0; i < in_ch; ++i) {
      const float a = src[i];
      const float* wi = wk + size_t(i) * out_ch;
      for (int o = 0; o < out_ch; ++o) out[o] += a * wi[o];
    }
  }
}

}  // namespace

PlainNet::PlainNet(const Model& model) : config_(model.config) {
  validate(model);
  require_game(model, GameKind::kMushroom, "the bot's inference");
  const int C = config_.channels, E = config_.policy_dim;
  input_ = make_conv(model.at("input.weight"), model.at("input.bias"));
  for (int b = 0; b < config_.blocks; ++b) {
    const std::string p = "blocks." + std::to_string(b) + ".";
    Block blk;
    blk.conv1 = make_conv(model.at(p + "conv1.weight"), model.at(p + "conv1.bias"));
    blk.conv2 = make_conv(model.at(p + "conv2.weight"), model.at(p + "conv2.bias"));
    blk.gpool = make_linear(model.at(p + "gpool.weight"), nullptr);
    blocks_.push_back(std::move(blk));
  }
  policy_ = make_linear(model.at("policy.conv.weight"), &model.at("policy.conv.bias"));
  pass_ = make_linear(model.at("policy.pass.weight"), &model.at("policy.pass.bias"));
  fc1_ = make_linear(model.at("value.fc1.weight"), &model.at("value.fc1.bias"));
  fc2_ = make_linear(model.at("value.fc2.weight"), &model.at("value.fc2.bias"));
  ownership_ = make_linear(model.at("ownership.conv.weight"), &model.at("ownership.conv.bias"));
  grid_.assign(size_t(kArrayCells) * kInputPlanes, 0.0f);
  x_.assign(size_t(kArrayCells) * C, 0.0f);
  h_.assign(size_t(kArrayCells) * C, 0.0f);
  h2_.assign(size_t(kArrayCells) * C, 0.0f);
  uv_.assign(size_t(kCells) * 2 * E, 0.0f);
  pooled_.assign(size_t(2) * C, 0.0f);
  hidden_.assign(size_t(config_.value_hidden), 0.0f);
  gpool_out_.assign(size_t(C), 0.0f);
}

// Writes the 170 board cells of out; its border cells stay zero. A group
// may read up to kGroup - 1 cells past a row's end: the grid's border and
// the next row, all inside the array; those results are not stored.
void PlainNet::conv(const float* in, const Conv& c, float* out) const {
  static constexpr int kOffsets[9] = {-kPadW - 1, -kPadW, -kPadW + 1, -1, 0, 1, kPadW - 1, kPadW, kPadW + 1};
  const bool sparse = c.in == kInputPlanes;
  for (int r = 0; r < kRows; ++r) {
    for (int col = 0; col < kCols; col += sparse ? 1 : kGroup) {
      const int p = (r + 1) * kPadW + col + 1;
      const int count = sparse ? 1 : std::min(kGroup, kCols - col);
      const float* centre = in + size_t(p) * c.in;
      float* dst = out + size_t(p) * c.out;
#define MUSHROOM_CONV_CASE(N)                                                                   \
  case N:                                                                                       \
    if (sparse) conv_cell_sparse<N>(centre, c.in, kOffsets, c.w.data(), c.bias.data(), dst);     \
    else conv_cells_fixed<N>(centre, c.in, count, kOffsets, c.w.data(), c.bias.data(), dst);     \
    break;
      switch (c.out) {
        MUSHROOM_CONV_CASE(16)
        MUSHROOM_CONV_CASE(24)
        MUSHROOM_CONV_CASE(32)
        MUSHROOM_CONV_CASE(48)
        MUSHROOM_CONV_CASE(64)
        default:
          for (int j = 0; j < count; ++j)
            conv_cell_any(centre + j * c.in, c.in, c.out, kOffsets, c.w.data(), c.bias.data(), dst + j * c.out);
          break;
      }
#undef MUSHROOM_CONV_CASE
    }
  }
}

// [mean, max] over the board of a non-negative activation.
void PlainNet::pool(const float* a, int channels) {
  float* mean = pooled_.data();
  float* mx = pooled_.data() + channels;
  for (int ch = 0; ch < channels; ++ch) mean[ch] = mx[ch] = 0.0f;
  for (int cell = 0; cell < kCells; ++cell) {
    const float* row = a + size_t(pad_index(cell)) * channels;
    for (int ch = 0; ch < channels; ++ch) {
      mean[ch] += row[ch];
      mx[ch] = std::max(mx[ch], row[ch]);
    }
  }
  for (int ch = 0; ch < channels; ++ch) mean[ch] /= float(kCells);
}

void PlainNet::evaluate(const Position& pos, const Move* moves, int num_moves, NetEval& out, bool want_ownership) {
  float planes[kInputSize];
  encode_features(pos, planes);
  slots_.resize(size_t(num_moves));
  for (int i = 0; i < num_moves; ++i) slots_[size_t(i)] = moves[i].index();
  evaluate_planes(planes, slots_.data(), num_moves, out, want_ownership);
}

void PlainNet::evaluate_planes(const float* planes, const int32_t* slots, int num_slots, NetEval& out,
                               bool want_ownership) {
  const int C = config_.channels, E = config_.policy_dim;
  for (int cell = 0; cell < kCells; ++cell)
    for (int pl = 0; pl < kInputPlanes; ++pl)
      grid_[size_t(pad_index(cell)) * kInputPlanes + pl] = planes[pl * kCells + cell];

  auto relu_cells = [&](std::vector<float>& a) {
    for (int cell = 0; cell < kCells; ++cell) {
      float* row = &a[size_t(pad_index(cell)) * C];
      for (int ch = 0; ch < C; ++ch) row[ch] = std::max(row[ch], 0.0f);
    }
  };
  conv(grid_.data(), input_, x_.data());
  relu_cells(x_);
  float* g = gpool_out_.data();
  for (const Block& blk : blocks_) {
    conv(x_.data(), blk.conv1, h_.data());
    relu_cells(h_);
    pool(h_.data(), C);
    apply_linear(blk.gpool, pooled_.data(), g);
    for (int cell = 0; cell < kCells; ++cell) {
      float* row = &h_[size_t(pad_index(cell)) * C];
      for (int ch = 0; ch < C; ++ch) row[ch] += g[ch];
    }
    conv(h_.data(), blk.conv2, h2_.data());
    for (int cell = 0; cell < kCells; ++cell) {
      const size_t at = size_t(pad_index(cell)) * C;
      for (int ch = 0; ch < C; ++ch) x_[at + ch] = std::max(x_[at + ch] + h2_[at + ch], 0.0f);
    }
  }
  pool(x_.data(), C);

  apply_linear(fc1_, pooled_.data(), hidden_.data());
  for (float& v : hidden_) v = std::max(v, 0.0f);
  float head[4];
  apply_linear(fc2_, hidden_.data(), head);
  wdl_softmax(head, out.wdl);
  out.margin = head[3] * kScoreScale;

  // Policy: U and V for every cell, then the queried moves' dot products.
  for (int cell = 0; cell < kCells; ++cell)
    apply_linear(policy_, &x_[size_t(pad_index(cell)) * C], &uv_[size_t(cell) * 2 * E]);
  float pass_logit = 0;
  apply_linear(pass_, pooled_.data(), &pass_logit);
  const float scale = 1.0f / std::sqrt(float(E));
  out.logits.resize(size_t(num_slots));
  for (int i = 0; i < num_slots; ++i) {
    if (slots[i] == kPassIndex) {
      out.logits[size_t(i)] = pass_logit;
      continue;
    }
    // A rectangle's index is top-left cell * kCells + bottom-right cell.
    const float* u = &uv_[size_t(slots[i] / kCells) * 2 * E];
    const float* v = &uv_[size_t(slots[i] % kCells) * 2 * E + E];
    float dot = 0;
    for (int e = 0; e < E; ++e) dot += u[e] * v[e];
    out.logits[size_t(i)] = scale * dot;
  }

  out.ownership.clear();
  if (want_ownership) {
    out.ownership.resize(kCells);
    for (int cell = 0; cell < kCells; ++cell) {
      float o = 0;
      apply_linear(ownership_, &x_[size_t(pad_index(cell)) * C], &o);
      out.ownership[size_t(cell)] = std::tanh(o);
    }
  }
}

void PlainNet::evaluate(Span<const NetQuery> queries, Span<NetEval> out) {
  for (size_t i = 0; i < queries.size(); ++i)
    evaluate_planes(queries[i].planes, queries[i].slots, queries[i].num_slots, out[i], queries[i].want_ownership);
}

}  // namespace mushroom::nn
