#include "nnue/network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "nnue/features.h"
#include "util/hash.h"

namespace mushroom::nnue {

namespace {

constexpr char kMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '2'};
constexpr char kBucketMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '3'};
constexpr char kMobilityMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '4'};
// Issue 100's window features (2x2 blocks of cells), rejected at the real
// clock and removed: their files are refused by name.
constexpr char kWindowMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '5'};
constexpr char kOldMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '1'};

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
T get(const std::string& in, size_t& at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return value;
}

void resize_for(Network& m) {
  const Shape& x = m.shape;
  m.ft_weight.assign(size_t(kFeatures) * x.hidden, 0.0f);
  m.ft_bias.assign(size_t(x.hidden), 0.0f);
  const size_t S = size_t(x.stacks());
  m.l1_weight.assign(S * x.l1 * size_t(x.dense_inputs()), 0.0f);
  m.l1_bias.assign(S * x.l1, 0.0f);
  m.l2_weight.assign(S * x.l2 * x.l1, 0.0f);
  m.l2_bias.assign(S * x.l2, 0.0f);
  m.out_weight.assign(S * x.l2, 0.0f);
  m.out_bias.assign(S, 0.0f);
}

// Every value must survive the integer runtime's scaling (the names and
// limits are in the message, so a trainer that forgot to clip is told).
void check_ranges(Network& m, const std::string& source) {
  for (const auto& t : m.tensors())
    for (size_t i = 0; i < t.size; ++i)
      if (!std::isfinite(t.data[i]))
        throw NetworkError(source + ": tensor " + t.name + " holds a non-finite value");
  const auto dense_limit = [&](const std::vector<float>& w, const char* name) {
    for (float v : w)
      if (std::fabs(v) * kDenseScale > 127.0f)
        throw NetworkError(source + ": tensor " + std::string(name) + " holds " + std::to_string(v) +
                           ", outside the int8 range +-" + std::to_string(127.0f / kDenseScale));
  };
  dense_limit(m.l1_weight, "l1.weight");
  dense_limit(m.l2_weight, "l2.weight");
  dense_limit(m.out_weight, "out.weight");
  // The accumulator is int16: its largest possible magnitude, the bias plus
  // the largest row of every cell and of every triple's place, must fit,
  // counted as the runtime adds them (each value rounded to 1/kFtScale: 456
  // rows rounding up by half a step each is 228 more than the float sum
  // says).
  // Beyond int16 by far is just far (lround has no answer past long).
  const auto rounded = [](float v) {
    return std::fabs(v * kFtScale) > 1e9f ? 1e9 : std::fabs(double(ft_integer(v)));
  };
  const auto largest = [&](int first, int count, int h) {
    double most = 0;
    for (int f = first; f < first + count; ++f) most = std::max(most, rounded(m.ft_weight[size_t(f) * m.shape.hidden + h]));
    return most;
  };
  for (int h = 0; h < m.shape.hidden; ++h) {
    double worst = rounded(m.ft_bias[size_t(h)]);
    for (int cell = 0; cell < 170; ++cell) worst += largest(cell * kCellStates, kCellStates, h);
    worst += 10 * 15 * largest(kRowTripleBase, kTripleFeatures, h);
    worst += 17 * 8 * largest(kColumnTripleBase, kTripleFeatures, h);
    if (worst > 32767.0)
      throw NetworkError(source + ": transformer unit " + std::to_string(h) + " can reach " +
                         std::to_string(int64_t(worst)) + " in the int16 accumulator (its values in 1/" +
                         std::to_string(int(kFtScale)) + "ths, as the runtime adds them), beyond 32767");
  }
  if (std::fabs(m.skip_margin) * kSkipScale > 1e6 || std::fabs(m.skip_gain) * kSkipScale > 1e6)
    throw NetworkError(source + ": a skip weight is beyond +-" + std::to_string(1e6 / kSkipScale));
  // The dense layers' int32 sums: a bias's part must leave room for the
  // weights' (at most 1,035 inputs x 127 x 127).
  const auto bias_limit = [&](const std::vector<float>& b, const char* name) {
    for (float v : b)
      if (std::fabs(v) > kMaxDenseBias)
        throw NetworkError(source + ": tensor " + std::string(name) + " holds " + std::to_string(v) +
                           ", outside the runtime's +-" + std::to_string(kMaxDenseBias));
  };
  bias_limit(m.l1_bias, "l1.bias");
  bias_limit(m.l2_bias, "l2.bias");
  // The search's scores: the largest evaluation a stack can give (its
  // output's bias and weights on hidden units in [0, 1], and the skips on
  // a margin and a best gain of at most 170 cells each) must stay far
  // inside alpha-beta's infinity.
  const size_t l2 = size_t(m.shape.l2);
  for (size_t s = 0; s < m.out_bias.size(); ++s) {
    double most = std::fabs(m.out_bias[s]) + 170.0 * (std::fabs(m.skip_margin) + std::fabs(m.skip_gain));
    for (size_t i = 0; i < l2; ++i) most += std::fabs(m.out_weight[s * l2 + i]);
    if (most > kMaxEvaluationCells)
      throw NetworkError(source + ": dense stack " + std::to_string(s) + " can evaluate a position at " +
                         std::to_string(most) + " cells, beyond the search's +-" + std::to_string(kMaxEvaluationCells));
  }
}

}  // namespace

std::vector<Network::TensorRef> Network::tensors() {
  return {{"ft.weight", ft_weight.data(), ft_weight.size()},    {"ft.bias", ft_bias.data(), ft_bias.size()},
          {"l1.weight", l1_weight.data(), l1_weight.size()},    {"l1.bias", l1_bias.data(), l1_bias.size()},
          {"l2.weight", l2_weight.data(), l2_weight.size()},    {"l2.bias", l2_bias.data(), l2_bias.size()},
          {"out.weight", out_weight.data(), out_weight.size()}, {"out.bias", out_bias.data(), out_bias.size()},
          {"skip.margin", &skip_margin, 1},                     {"skip.gain", &skip_gain, 1}};
}

Network Network::hand_equivalent(const Shape& shape) {
  Network m;
  m.shape = shape;
  resize_for(m);
  return m;
}

std::string serialize_network(const Network& network) {
  Network m = network;  // tensors() hands out pointers
  // The oldest magic that holds the model, so older models keep their bytes.
  const Shape& x = m.shape;
  const bool buckets = x.stacks() > 1 || x.mobility;
  std::string out(x.mobility ? kMobilityMagic : buckets ? kBucketMagic : kMagic, sizeof kMagic);
  put<uint32_t>(out, uint32_t(x.hidden));
  put<uint32_t>(out, uint32_t(x.l1));
  put<uint32_t>(out, uint32_t(x.l2));
  if (buckets) {
    put<uint32_t>(out, uint32_t(x.phase_buckets));
    put<uint32_t>(out, uint32_t(x.seat_buckets));
  }
  if (x.mobility) put<uint32_t>(out, uint32_t(kMobilityInputs));
  for (const auto& t : m.tensors()) out.append(reinterpret_cast<const char*>(t.data), t.size * sizeof(float));
  put<uint64_t>(out, fnv1a64(out.data(), out.size()));
  return out;
}

Network parse_network(const std::string& bytes, const std::string& source) {
  if (bytes.size() >= sizeof kOldMagic && std::memcmp(bytes.data(), kOldMagic, sizeof kOldMagic) == 0)
    throw NetworkError(source + ": an MSHEVAL1 evaluation (cell features only), which this build no longer "
                       "runs: retrain it (MSHEVAL2 adds the row and column triples)");
  const auto starts_with = [&](const char* magic) {
    return bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), magic, sizeof kMagic) == 0;
  };
  if (starts_with(kWindowMagic))
    throw NetworkError(source + ": an MSHEVAL5 file, an evaluation with window features (issue 100), which were "
                       "rejected and removed; this build reads MSHEVAL2, MSHEVAL3 and MSHEVAL4");
  const bool mobility = starts_with(kMobilityMagic);
  const bool buckets = mobility || starts_with(kBucketMagic);
  if (!buckets && !starts_with(kMagic))
    throw NetworkError(source + ": not a learned-evaluation file (no MSHEVAL2, MSHEVAL3 or MSHEVAL4 magic)");
  const size_t header = sizeof kMagic + (mobility ? 6 : buckets ? 5 : 3) * sizeof(uint32_t);
  if (bytes.size() < header + sizeof(uint64_t))
    throw NetworkError(source + ": " + std::to_string(bytes.size()) + " bytes, too short for a learned evaluation");
  size_t at = sizeof kMagic;
  Network m;
  Shape& x = m.shape;
  x.hidden = int(get<uint32_t>(bytes, at));
  x.l1 = int(get<uint32_t>(bytes, at));
  x.l2 = int(get<uint32_t>(bytes, at));
  if (buckets) {
    x.phase_buckets = int(get<uint32_t>(bytes, at));
    x.seat_buckets = int(get<uint32_t>(bytes, at));
  }
  if (mobility) {
    const uint32_t inputs = get<uint32_t>(bytes, at);
    if (inputs != uint32_t(kMobilityInputs))
      throw NetworkError(source + ": " + std::to_string(inputs) + " mobility inputs, where this build runs " +
                         std::to_string(kMobilityInputs));
    x.mobility = true;
  }
  // The buckets first: the architecture's message (Shape::to_string)
  // multiplies them, which the file's values could overflow.
  if (x.phase_buckets < 1 || x.phase_buckets > kMaxPhaseBuckets || x.seat_buckets < 1 || x.seat_buckets > 2)
    throw NetworkError(source + ": " + std::to_string(x.phase_buckets) + " phase buckets and " +
                       std::to_string(x.seat_buckets) + " seat buckets, where this build runs 1.." +
                       std::to_string(kMaxPhaseBuckets) + " and 1..2");
  if (x.hidden < 16 || x.hidden > 512 || x.hidden % 16 != 0 || x.l1 < 1 || x.l1 > 64 || x.l2 < 1 || x.l2 > 64)
    throw NetworkError(source + ": architecture " + x.to_string() +
                       " is not one this build runs (H a multiple of 16 in 16..512, L1 and L2 in 1..64)");
  resize_for(m);
  size_t floats = 0;
  for (const auto& t : m.tensors()) floats += t.size;
  const size_t expected = header + floats * sizeof(float) + sizeof(uint64_t);
  if (bytes.size() != expected)
    throw NetworkError(source + ": " + std::to_string(bytes.size()) + " bytes where an " + x.to_string() +
                       " evaluation with " + std::to_string(x.stacks()) + " dense stacks has " +
                       std::to_string(expected) + " (truncated, or another architecture)");
  for (const auto& t : m.tensors()) {
    std::memcpy(t.data, bytes.data() + at, t.size * sizeof(float));
    at += t.size * sizeof(float);
  }
  if (get<uint64_t>(bytes, at) != fnv1a64(bytes.data(), expected - sizeof(uint64_t)))
    throw NetworkError(source + ": checksum mismatch (the file is corrupt)");
  check_ranges(m, source);
  return m;
}

std::string read_network_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NetworkError(path + ": cannot open the learned-evaluation file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

Network read_network(const std::string& path) { return parse_network(read_network_bytes(path), path); }

}  // namespace mushroom::nnue
