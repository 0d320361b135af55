#include "nn/reference_net.h"

#include <algorithm>
#include <cmath>

#include "nn/features.h"

namespace mushroom::nn {

namespace {

using Planes = std::vector<float>;  // [channels][kRows][kCols]

Planes conv(const Planes& in, int cin, const Tensor& w, const Tensor& b) {
  const int cout = int(w.shape[0]), k = int(w.shape[2]), half = k / 2;
  Planes out(size_t(cout) * kCells);
  for (int o = 0; o < cout; ++o)
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        double sum = b.data[o];
        for (int i = 0; i < cin; ++i)
          for (int dr = 0; dr < k; ++dr)
            for (int dc = 0; dc < k; ++dc) {
              const int rr = r + dr - half, cc = c + dc - half;
              if (rr < 0 || rr >= kRows || cc < 0 || cc >= kCols) continue;
              sum += double(w.data[((o * cin + i) * k + dr) * k + dc]) * in[i * kCells + rr * kCols + cc];
            }
        out[o * kCells + r * kCols + c] = float(sum);
      }
  return out;
}

void relu(Planes& p) {
  for (float& v : p) v = std::max(v, 0.0f);
}

std::vector<float> pool(const Planes& p, int channels) {
  std::vector<float> out(2 * channels);
  for (int ch = 0; ch < channels; ++ch) {
    double sum = 0;
    float mx = -1e30f;
    for (int i = 0; i < kCells; ++i) {
      sum += p[ch * kCells + i];
      mx = std::max(mx, p[ch * kCells + i]);
    }
    out[ch] = float(sum / kCells);
    out[channels + ch] = mx;
  }
  return out;
}

std::vector<float> linear(const std::vector<float>& x, const Tensor& w, const Tensor* b) {
  const int out = int(w.shape[0]), in = int(w.shape[1]);
  std::vector<float> y(out);
  for (int o = 0; o < out; ++o) {
    double sum = b ? b->data[o] : 0.0;
    for (int i = 0; i < in; ++i) sum += double(w.data[o * in + i]) * x[i];
    y[o] = float(sum);
  }
  return y;
}

}  // namespace

void reference_forward(const Model& m, const float* planes, NetEval& out) {
  const int C = m.config.channels, E = m.config.policy_dim;
  Planes x = conv(Planes(planes, planes + kInputSize), kInputPlanes, m.at("input.weight"), m.at("input.bias"));
  relu(x);
  for (int blk = 0; blk < m.config.blocks; ++blk) {
    const std::string p = "blocks." + std::to_string(blk) + ".";
    Planes h = conv(x, C, m.at(p + "conv1.weight"), m.at(p + "conv1.bias"));
    relu(h);
    const std::vector<float> g = linear(pool(h, C), m.at(p + "gpool.weight"), nullptr);
    for (int ch = 0; ch < C; ++ch)
      for (int i = 0; i < kCells; ++i) h[ch * kCells + i] += g[ch];
    const Planes y = conv(h, C, m.at(p + "conv2.weight"), m.at(p + "conv2.bias"));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::max(0.0f, x[i] + y[i]);
  }
  const std::vector<float> pooled = pool(x, C);
  const std::vector<float> head =
      linear([&] {
        auto h = linear(pooled, m.at("value.fc1.weight"), &m.at("value.fc1.bias"));
        for (float& v : h) v = std::max(v, 0.0f);
        return h;
      }(),
             m.at("value.fc2.weight"), &m.at("value.fc2.bias"));
  wdl_softmax(head.data(), out.wdl);
  out.margin = head[3] * kScoreScale;

  const Planes uv = conv(x, C, m.at("policy.conv.weight"), m.at("policy.conv.bias"));
  out.logits.assign(kPolicySize, 0.0f);
  for (int a = 0; a < kCells; ++a)
    for (int b = 0; b < kCells; ++b) {
      double dot = 0;
      for (int e = 0; e < E; ++e) dot += double(uv[e * kCells + a]) * uv[(E + e) * kCells + b];
      out.logits[a * kCells + b] = float(dot / std::sqrt(double(E)));
    }
  out.logits[kPassIndex] = linear(pooled, m.at("policy.pass.weight"), &m.at("policy.pass.bias"))[0];
  const Planes own = conv(x, C, m.at("ownership.conv.weight"), m.at("ownership.conv.bias"));
  out.ownership.resize(kCells);
  for (int i = 0; i < kCells; ++i) out.ownership[i] = std::tanh(own[i]);
}

}  // namespace mushroom::nn
