#include "mushroom/learned_eval_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/hash.h"

namespace mushroom {

namespace {

constexpr char kMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '2'};
constexpr char kBucketMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '3'};
constexpr char kMobilityMagic[8] = {'M', 'S', 'H', 'E', 'V', 'A', 'L', '4'};
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

void resize_for(LearnedEvalModel& m) {
  m.ft_weight.assign(size_t(kEvalFeatures) * m.hidden, 0.0f);
  m.ft_bias.assign(size_t(m.hidden), 0.0f);
  const size_t S = size_t(m.stacks());
  m.l1_weight.assign(S * m.l1 * size_t(m.dense_inputs()), 0.0f);
  m.l1_bias.assign(S * m.l1, 0.0f);
  m.l2_weight.assign(S * m.l2 * m.l1, 0.0f);
  m.l2_bias.assign(S * m.l2, 0.0f);
  m.out_weight.assign(S * m.l2, 0.0f);
  m.out_bias.assign(S, 0.0f);
}

// Every value must survive the integer runtime's scaling (the names and
// limits are in the message, so a trainer that forgot to clip is told).
void check_ranges(LearnedEvalModel& m, const std::string& source) {
  for (const auto& t : m.tensors())
    for (size_t i = 0; i < t.size; ++i)
      if (!std::isfinite(t.data[i]))
        throw LearnedEvalError(source + ": tensor " + t.name + " holds a non-finite value");
  const auto dense_limit = [&](const std::vector<float>& w, const char* name) {
    for (float v : w)
      if (std::fabs(v) * kDenseScale > 127.0f)
        throw LearnedEvalError(source + ": tensor " + std::string(name) + " holds " + std::to_string(v) +
                               ", outside the int8 range +-" + std::to_string(127.0f / kDenseScale));
  };
  dense_limit(m.l1_weight, "l1.weight");
  dense_limit(m.l2_weight, "l2.weight");
  dense_limit(m.out_weight, "out.weight");
  // The accumulator is int16: its largest possible magnitude, the bias plus
  // the largest row of every cell and of every triple's place, must fit.
  const auto largest = [&](int first, int count, int h) {
    double most = 0;
    for (int f = first; f < first + count; ++f) most = std::max(most, double(std::fabs(m.ft_weight[size_t(f) * m.hidden + h])));
    return most;
  };
  for (int h = 0; h < m.hidden; ++h) {
    double worst = std::fabs(m.ft_bias[size_t(h)]);
    for (int cell = 0; cell < 170; ++cell) worst += largest(cell * kEvalCellStates, kEvalCellStates, h);
    worst += 10 * 15 * largest(kEvalRowTripleBase, kEvalTripleFeatures, h);
    worst += 17 * 8 * largest(kEvalColumnTripleBase, kEvalTripleFeatures, h);
    if (worst * kFtScale > 32767.0)
      throw LearnedEvalError(source + ": transformer unit " + std::to_string(h) + " can reach " +
                             std::to_string(worst) + ", outside the int16 accumulator's range +-" +
                             std::to_string(32767.0 / kFtScale));
  }
  if (std::fabs(m.skip_margin) * kSkipScale > 1e6 || std::fabs(m.skip_gain) * kSkipScale > 1e6)
    throw LearnedEvalError(source + ": a skip weight is beyond +-" + std::to_string(1e6 / kSkipScale));
}

}  // namespace

std::vector<LearnedEvalModel::TensorRef> LearnedEvalModel::tensors() {
  return {{"ft.weight", ft_weight.data(), ft_weight.size()},    {"ft.bias", ft_bias.data(), ft_bias.size()},
          {"l1.weight", l1_weight.data(), l1_weight.size()},    {"l1.bias", l1_bias.data(), l1_bias.size()},
          {"l2.weight", l2_weight.data(), l2_weight.size()},    {"l2.bias", l2_bias.data(), l2_bias.size()},
          {"out.weight", out_weight.data(), out_weight.size()}, {"out.bias", out_bias.data(), out_bias.size()},
          {"skip.margin", &skip_margin, 1},                     {"skip.gain", &skip_gain, 1}};
}

LearnedEvalModel LearnedEvalModel::hand_equivalent(int hidden, int l1, int l2, int phase_buckets, int seat_buckets,
                                                   bool mobility) {
  LearnedEvalModel m;
  m.hidden = hidden;
  m.l1 = l1;
  m.l2 = l2;
  m.phase_buckets = phase_buckets;
  m.seat_buckets = seat_buckets;
  m.mobility = mobility;
  resize_for(m);
  return m;
}

std::string learned_eval_architecture(int hidden, int l1, int l2, int phase_buckets, int seat_buckets, bool mobility) {
  std::string s = "H=" + std::to_string(hidden) + " L1=" + std::to_string(l1) + " L2=" + std::to_string(l2);
  if (phase_buckets * seat_buckets > 1)
    s += ", " + std::to_string(phase_buckets) + " phase x " + std::to_string(seat_buckets) + " seat buckets";
  if (mobility) s += ", mobility inputs";
  return s;
}

std::string learned_eval_architecture(const LearnedEvalModel& m) {
  return learned_eval_architecture(m.hidden, m.l1, m.l2, m.phase_buckets, m.seat_buckets, m.mobility);
}

std::string serialize_learned_eval(const LearnedEvalModel& model) {
  LearnedEvalModel m = model;  // tensors() hands out pointers
  // The oldest magic that holds the model, so older models keep their bytes.
  const bool buckets = m.stacks() > 1 || m.mobility;
  std::string out(m.mobility ? kMobilityMagic : buckets ? kBucketMagic : kMagic, sizeof kMagic);
  put<uint32_t>(out, uint32_t(m.hidden));
  put<uint32_t>(out, uint32_t(m.l1));
  put<uint32_t>(out, uint32_t(m.l2));
  if (buckets) {
    put<uint32_t>(out, uint32_t(m.phase_buckets));
    put<uint32_t>(out, uint32_t(m.seat_buckets));
  }
  if (m.mobility) put<uint32_t>(out, uint32_t(kEvalMobilityInputs));
  for (const auto& t : m.tensors()) out.append(reinterpret_cast<const char*>(t.data), t.size * sizeof(float));
  put<uint64_t>(out, fnv1a64(out.data(), out.size()));
  return out;
}

LearnedEvalModel parse_learned_eval(const std::string& bytes, const std::string& source) {
  if (bytes.size() >= sizeof kOldMagic && std::memcmp(bytes.data(), kOldMagic, sizeof kOldMagic) == 0)
    throw LearnedEvalError(source + ": an MSHEVAL1 evaluation (cell features only), which this build no longer "
                                    "runs: retrain it (MSHEVAL2 adds the row and column triples)");
  const auto starts_with = [&](const char* magic) {
    return bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), magic, sizeof kMagic) == 0;
  };
  const bool mobility = starts_with(kMobilityMagic);
  const bool buckets = mobility || starts_with(kBucketMagic);
  if (!buckets && !starts_with(kMagic))
    throw LearnedEvalError(source + ": not a learned-evaluation file (no MSHEVAL2, MSHEVAL3 or MSHEVAL4 magic)");
  const size_t header = sizeof kMagic + (mobility ? 6 : buckets ? 5 : 3) * sizeof(uint32_t);
  if (bytes.size() < header + sizeof(uint64_t))
    throw LearnedEvalError(source + ": " + std::to_string(bytes.size()) + " bytes, too short for a learned evaluation");
  size_t at = sizeof kMagic;
  LearnedEvalModel m;
  m.hidden = int(get<uint32_t>(bytes, at));
  m.l1 = int(get<uint32_t>(bytes, at));
  m.l2 = int(get<uint32_t>(bytes, at));
  if (buckets) {
    m.phase_buckets = int(get<uint32_t>(bytes, at));
    m.seat_buckets = int(get<uint32_t>(bytes, at));
  }
  if (mobility) {
    const uint32_t inputs = get<uint32_t>(bytes, at);
    if (inputs != uint32_t(kEvalMobilityInputs))
      throw LearnedEvalError(source + ": " + std::to_string(inputs) + " mobility inputs, where this build runs " +
                             std::to_string(kEvalMobilityInputs));
    m.mobility = true;
  }
  if (m.hidden < 16 || m.hidden > 512 || m.hidden % 16 != 0 || m.l1 < 1 || m.l1 > 64 || m.l2 < 1 || m.l2 > 64)
    throw LearnedEvalError(source + ": architecture H=" + std::to_string(m.hidden) + " L1=" + std::to_string(m.l1) +
                           " L2=" + std::to_string(m.l2) +
                           " is not one this build runs (H a multiple of 16 in 16..512, L1 and L2 in 1..64)");
  if (m.phase_buckets < 1 || m.phase_buckets > kEvalMaxPhaseBuckets || m.seat_buckets < 1 || m.seat_buckets > 2)
    throw LearnedEvalError(source + ": " + std::to_string(m.phase_buckets) + " phase buckets and " +
                           std::to_string(m.seat_buckets) + " seat buckets, where this build runs 1.." +
                           std::to_string(kEvalMaxPhaseBuckets) + " and 1..2");
  resize_for(m);
  size_t floats = 0;
  for (const auto& t : m.tensors()) floats += t.size;
  const size_t expected = header + floats * sizeof(float) + sizeof(uint64_t);
  if (bytes.size() != expected)
    throw LearnedEvalError(source + ": " + std::to_string(bytes.size()) + " bytes where an H=" +
                           std::to_string(m.hidden) + " L1=" + std::to_string(m.l1) + " L2=" + std::to_string(m.l2) +
                           " evaluation with " + std::to_string(m.stacks()) + " dense stacks has " + std::to_string(expected) + " (truncated, or another architecture)");
  for (const auto& t : m.tensors()) {
    std::memcpy(t.data, bytes.data() + at, t.size * sizeof(float));
    at += t.size * sizeof(float);
  }
  if (get<uint64_t>(bytes, at) != fnv1a64(bytes.data(), expected - sizeof(uint64_t)))
    throw LearnedEvalError(source + ": checksum mismatch (the file is corrupt)");
  check_ranges(m, source);
  return m;
}

LearnedEvalModel read_learned_eval(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LearnedEvalError(path + ": cannot open the learned-evaluation file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse_learned_eval(bytes.str(), path);
}

}  // namespace mushroom
