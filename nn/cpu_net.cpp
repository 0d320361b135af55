#include "nn/cpu_net.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "nn/features.h"

namespace mushroom::nn {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;

// The zero-bordered grid: cell (r, c) sits at row (r + 1) * kPadW + (c + 1).
constexpr int kPadW = kCols + 2;
constexpr int kPadH = kRows + 2;
constexpr int kPadCells = kPadW * kPadH;
// Convolution outputs are computed for the contiguous rows from cell (0,0)
// to cell (9,16); the border rows inside that range are zeroed afterwards.
constexpr int kFirstRow = kPadW + 1;
constexpr int kConvRows = kRows * kPadW - 2;

constexpr int pad_index(int cell) { return (cell / kCols + 1) * kPadW + cell % kCols + 1; }

struct Conv3x3 {
  int in = 0, out = 0;
  RowMat w;     // [9 * in, out]: row (k * in + i) holds weight[o][i][k / 3][k % 3]
  RowVec bias;  // [out]
};

Conv3x3 make_conv(const Tensor& w, const Tensor& b) {
  Conv3x3 c;
  c.out = int(w.shape[0]);
  c.in = int(w.shape[1]);
  c.w.resize(9 * c.in, c.out);
  for (int o = 0; o < c.out; ++o)
    for (int i = 0; i < c.in; ++i)
      for (int k = 0; k < 9; ++k) c.w(k * c.in + i, o) = w.data[(o * c.in + i) * 9 + k];
  c.bias = Eigen::Map<const RowVec>(b.data.data(), c.out);
  return c;
}

// Torch's [out, in] linear weight as an [in, out] matrix, so row * matrix.
RowMat linear_weight(const Tensor& w) {
  RowMat m(w.shape[1], w.shape[0]);
  for (int o = 0; o < w.shape[0]; ++o)
    for (int i = 0; i < w.shape[1]; ++i) m(i, o) = w.data[o * w.shape[1] + i];
  return m;
}

RowVec row_vector(const Tensor& t) { return Eigen::Map<const RowVec>(t.data.data(), t.numel()); }

void zero_border_rows(RowMat& m) {
  for (int r = 1; r < kRows; ++r) {
    m.row(r * kPadW + kPadW - 1).setZero();
    m.row((r + 1) * kPadW).setZero();
  }
}

}  // namespace

struct CpuNet::Weights {
  Conv3x3 input;
  struct Block {
    Conv3x3 conv1, conv2;
    RowMat gpool;  // [2C, C]
  };
  std::vector<Block> blocks;
  RowMat policy;  // [C, 2E]
  RowVec policy_bias;
  RowVec pass;    // [2C]
  float pass_bias = 0;
  RowMat fc1;     // [2C, H]
  RowVec fc1_bias;
  RowMat fc2;     // [H, 4]
  RowVec fc2_bias;
  RowVec ownership;  // [C]
  float ownership_bias = 0;

  // Scratch, reused by every call (one CpuNet per thread).
  RowMat x, h, cols, input_grid, uv;
  RowVec pooled;

  void conv(const RowMat& in, const Conv3x3& c, RowMat& out) {
    for (int k = 0; k < 9; ++k) {
      const int offset = (k / 3 - 1) * kPadW + (k % 3 - 1);
      cols.block(0, k * c.in, kConvRows, c.in) = in.block(kFirstRow + offset, 0, kConvRows, c.in);
    }
    auto target = out.block(kFirstRow, 0, kConvRows, c.out);
    target.noalias() = cols.leftCols(9 * c.in) * c.w;
    target.rowwise() += c.bias;
  }

  // [mean, max] over the board of a non-negative activation with zero borders.
  void pool(const RowMat& a, int channels) {
    pooled.resize(2 * channels);
    pooled.head(channels) = a.colwise().sum() / float(kCells);
    pooled.tail(channels) = a.colwise().maxCoeff();
  }
};

CpuNet::CpuNet(const Model& model) : config_(model.config), w_(std::make_unique<Weights>()) {
  validate(model);
  require_game(model, GameKind::kMushroom, "the Eigen CPU inference");
  Weights& w = *w_;
  const int C = config_.channels, E = config_.policy_dim;
  w.input = make_conv(model.at("input.weight"), model.at("input.bias"));
  for (int b = 0; b < config_.blocks; ++b) {
    const std::string p = "blocks." + std::to_string(b) + ".";
    Weights::Block blk;
    blk.conv1 = make_conv(model.at(p + "conv1.weight"), model.at(p + "conv1.bias"));
    blk.conv2 = make_conv(model.at(p + "conv2.weight"), model.at(p + "conv2.bias"));
    blk.gpool = linear_weight(model.at(p + "gpool.weight"));
    w.blocks.push_back(std::move(blk));
  }
  const Tensor& pw = model.at("policy.conv.weight");
  w.policy = linear_weight(Tensor{{pw.shape[0], pw.shape[1]}, pw.data});
  w.policy_bias = row_vector(model.at("policy.conv.bias"));
  w.pass = row_vector(model.at("policy.pass.weight"));
  w.pass_bias = model.at("policy.pass.bias").data[0];
  w.fc1 = linear_weight(model.at("value.fc1.weight"));
  w.fc1_bias = row_vector(model.at("value.fc1.bias"));
  w.fc2 = linear_weight(model.at("value.fc2.weight"));
  w.fc2_bias = row_vector(model.at("value.fc2.bias"));
  w.ownership = row_vector(model.at("ownership.conv.weight"));
  w.ownership_bias = model.at("ownership.conv.bias").data[0];

  w.x = RowMat::Zero(kPadCells, C);
  w.h = RowMat::Zero(kPadCells, C);
  w.input_grid = RowMat::Zero(kPadCells, kInputPlanes);
  w.cols.resize(kConvRows, 9 * std::max(C, kInputPlanes));
  w.uv.resize(kPadCells, 2 * E);
}

CpuNet::~CpuNet() = default;

void CpuNet::evaluate(const Position& pos, const Move* moves, int num_moves, NetEval& out, bool want_ownership) {
  alignas(64) float planes[kInputSize];
  encode_features(pos, planes);
  slots_.resize(size_t(num_moves));
  for (int i = 0; i < num_moves; ++i) slots_[size_t(i)] = moves[i].index();
  evaluate_planes(planes, slots_.data(), num_moves, out, want_ownership);
}

void CpuNet::evaluate_planes(const float* planes, const int32_t* slots, int num_slots, NetEval& out,
                             bool want_ownership) {
  Weights& w = *w_;
  const int C = config_.channels, E = config_.policy_dim;
  for (int cell = 0; cell < kCells; ++cell)
    for (int p = 0; p < kInputPlanes; ++p) w.input_grid(pad_index(cell), p) = planes[p * kCells + cell];

  w.conv(w.input_grid, w.input, w.x);
  w.x = w.x.cwiseMax(0.0f);
  zero_border_rows(w.x);
  for (auto& blk : w.blocks) {
    w.conv(w.x, blk.conv1, w.h);
    w.h = w.h.cwiseMax(0.0f);
    zero_border_rows(w.h);
    w.pool(w.h, C);
    const RowVec g = w.pooled * blk.gpool;
    for (int cell = 0; cell < kCells; ++cell) w.h.row(pad_index(cell)) += g;
    // In place is safe: conv copies all of h into cols before writing.
    // h's border rows now hold junk; x's are cleared below and h is
    // rewritten (and its borders cleared) by the next block's conv1.
    w.conv(w.h, blk.conv2, w.h);
    w.x = (w.x + w.h).cwiseMax(0.0f);
    zero_border_rows(w.x);
  }
  w.pool(w.x, C);

  // Value and score.
  RowVec hidden = (w.pooled * w.fc1 + w.fc1_bias).cwiseMax(0.0f);
  RowVec head = hidden * w.fc2 + w.fc2_bias;
  wdl_softmax(head.data(), out.wdl);
  out.margin = head[3] * kScoreScale;

  // Policy: logits of the queried moves only.
  auto uv = w.uv.block(kFirstRow, 0, kConvRows, 2 * E);
  uv.noalias() = w.x.block(kFirstRow, 0, kConvRows, C) * w.policy;
  uv.rowwise() += w.policy_bias;
  const float scale = 1.0f / std::sqrt(float(E));
  const float pass_logit = w.pooled.dot(w.pass) + w.pass_bias;
  out.logits.resize(num_slots);
  for (int i = 0; i < num_slots; ++i) {
    if (slots[i] == kPassIndex) {
      out.logits[i] = pass_logit;
      continue;
    }
    // A rectangle's index is top-left cell * kCells + bottom-right cell.
    const int a = pad_index(slots[i] / kCells), b = pad_index(slots[i] % kCells);
    out.logits[i] = scale * w.uv.row(a).head(E).dot(w.uv.row(b).tail(E));
  }

  out.ownership.clear();
  if (want_ownership) {
    out.ownership.resize(kCells);
    for (int cell = 0; cell < kCells; ++cell)
      out.ownership[cell] = std::tanh(w.x.row(pad_index(cell)).dot(w.ownership) + w.ownership_bias);
  }
}

void CpuNet::evaluate(Span<const NetQuery> queries, Span<NetEval> out) {
  for (size_t i = 0; i < queries.size(); ++i)
    evaluate_planes(queries[i].planes, queries[i].slots, queries[i].num_slots, out[i], queries[i].want_ownership);
}

}  // namespace mushroom::nn
