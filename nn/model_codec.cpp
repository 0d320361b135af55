#include "nn/model_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <utility>

#include "nn/features.h"

namespace mushroom::nn {

namespace {

constexpr uint32_t kCodecVersion = 1;

uint32_t fnv1a(const uint8_t* data, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  return h;
}

class Writer {
 public:
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  void u32(uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    bytes(b, 4);
  }
  void f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  const uint8_t* take(size_t n) {
    if (size_ - pos_ < n) throw std::runtime_error("model data is truncated at byte " + std::to_string(pos_));
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  uint32_t u32() {
    const uint8_t* b = take(4);
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  size_t position() const { return pos_; }

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::vector<uint8_t> encode_model_int8(const Model& model) {
  validate(model);
  require_game(model, GameKind::kMushroom, "the int8 export");
  Writer w;
  w.bytes("MSHQ", 4);
  w.u32(kCodecVersion);
  const NetConfig& c = model.config;
  for (int v : {c.blocks, c.channels, c.policy_dim, c.value_hidden, kFeatureVersion}) w.u32(uint32_t(v));
  for (const TensorSpec& spec : tensor_specs(c)) {
    const Tensor& t = model.at(spec.name);
    if (spec.shape.size() < 2) {
      w.out.push_back(0);
      for (float v : t.data) w.f32(v);
      continue;
    }
    w.out.push_back(1);
    const int64_t rows = spec.shape[0], per_row = t.numel() / rows;
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = &t.data[size_t(r * per_row)];
      float mx = 0;
      for (int64_t i = 0; i < per_row; ++i) mx = std::max(mx, std::abs(row[i]));
      const float scale = mx > 0 ? mx / 127.0f : 1.0f;
      w.f32(scale);
      for (int64_t i = 0; i < per_row; ++i)
        w.out.push_back(uint8_t(int8_t(std::lround(std::clamp(row[i] / scale, -127.0f, 127.0f)))));
    }
  }
  w.u32(fnv1a(w.out.data(), w.out.size()));
  return w.out;
}

Model decode_model(const uint8_t* data, size_t size) {
  if (size < 8 || std::memcmp(data, "MSHQ", 4) != 0) throw std::runtime_error("model data: not a quantized model (bad magic)");
  if (fnv1a(data, size - 4) != Reader(data + size - 4, 4).u32())
    throw std::runtime_error("model data: checksum mismatch (corrupt or truncated)");
  Reader r(data, size - 4);
  r.take(4);
  if (const uint32_t v = r.u32(); v != kCodecVersion)
    throw std::runtime_error("model data: codec version " + std::to_string(v) + ", expected " +
                             std::to_string(kCodecVersion));
  Model m;
  m.config.blocks = int(r.u32());
  m.config.channels = int(r.u32());
  m.config.policy_dim = int(r.u32());
  m.config.value_hidden = int(r.u32());
  if (const uint32_t f = r.u32(); f != uint32_t(kFeatureVersion))
    throw std::runtime_error("model data: feature layout " + std::to_string(f) + ", this bot reads " +
                             std::to_string(kFeatureVersion));
  validate(m.config);
  for (const TensorSpec& spec : tensor_specs(m.config)) {
    Tensor t;
    t.shape = spec.shape;
    t.data.resize(size_t(t.numel()));
    const uint8_t kind = *r.take(1);
    if (kind == 0) {
      for (float& v : t.data) v = r.f32();
    } else if (kind == 1 && spec.shape.size() >= 2) {
      const int64_t rows = spec.shape[0], per_row = t.numel() / rows;
      for (int64_t row = 0; row < rows; ++row) {
        const float scale = r.f32();
        const uint8_t* q = r.take(size_t(per_row));
        for (int64_t i = 0; i < per_row; ++i) t.data[size_t(row * per_row + i)] = float(int8_t(q[i])) * scale;
      }
    } else {
      throw std::runtime_error("model data: tensor " + spec.name + " has unknown kind " + std::to_string(kind));
    }
    m.tensors[spec.name] = std::move(t);
  }
  if (r.position() != size - 4) throw std::runtime_error("model data: trailing bytes after the last tensor");
  validate(m);
  return m;
}

Model quantized_copy(const Model& model) {
  const std::vector<uint8_t> bytes = encode_model_int8(model);
  Model m = decode_model(bytes.data(), bytes.size());
  m.metadata = model.metadata;
  return m;
}

std::string base64_encode(const std::vector<uint8_t>& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = uint32_t(bytes[i]) << 16 | (i + 1 < bytes.size() ? uint32_t(bytes[i + 1]) << 8 : 0) |
                       (i + 2 < bytes.size() ? uint32_t(bytes[i + 2]) : 0);
    out += kAlphabet[n >> 18 & 63];
    out += kAlphabet[n >> 12 & 63];
    out += i + 1 < bytes.size() ? kAlphabet[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

std::vector<uint8_t> base64_decode(const std::string& text) {
  int value_of[256];
  std::fill(value_of, value_of + 256, -1);
  for (int i = 0; i < 64; ++i) value_of[uint8_t(kAlphabet[i])] = i;
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (const char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    if (ch == '=') break;
    const int v = value_of[uint8_t(ch)];
    if (v < 0) throw std::runtime_error(std::string("base64: unexpected character '") + ch + "'");
    acc = acc << 6 | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(uint8_t(acc >> bits));
    }
  }
  return out;
}

}  // namespace mushroom::nn
