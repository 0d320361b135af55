#include "selfplay/shard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>

#include "nn/hdf5_file.h"
#include "nn/features.h"
#include "util/version.h"

namespace mushroom::selfplay {

using nn::Hdf5File;

namespace {
constexpr const char* kFormat = "mushroom-selfplay";

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}
}  // namespace

namespace {

// The datasets and attributes every game's shard has.
void write_common(Hdf5File& f, const ShardMeta& meta, const std::vector<Sample>& samples) {
  const uint64_t N = samples.size();
  std::vector<uint8_t> to_move;
  std::vector<int16_t> ply;
  std::vector<int64_t> offsets{0}, game_id;
  std::vector<int32_t> moves;
  std::vector<float> probs, weight, value;
  std::vector<int8_t> outcome;
  for (const Sample& s : samples) {
    to_move.push_back(s.to_move);
    ply.push_back(s.ply);
    for (const auto& [m, p] : s.policy) {
      moves.push_back(m);
      probs.push_back(p);
    }
    offsets.push_back(int64_t(moves.size()));
    outcome.push_back(s.outcome);
    weight.push_back(s.weight);
    value.push_back(s.search_value);
    game_id.push_back(s.game_id);
  }
  f.set_attr("format", std::string(kFormat));
  f.set_attr("format_version", int64_t(kShardFormatVersion));
  f.set_attr("game", meta.game);
  f.set_attr("model_id", meta.model_id);
  f.set_attr("config_hash", meta.config_hash);
  f.set_attr("mushroom_version", build_version());
  f.set_attr("generator_seed", int64_t(meta.generator_seed));
  f.set_attr("games", meta.games);
  f.set_attr("samples", int64_t(N));
  f.set_attr("created", utc_now());
  const uint64_t P = moves.size();
  f.write("/to_move", {N}, to_move.data());
  f.write("/ply", {N}, ply.data());
  f.write("/policy_offsets", {N + 1}, offsets.data());
  f.write("/policy_moves", {P}, moves.data(), true);
  f.write("/policy_probs", {P}, probs.data(), true);
  f.write("/outcome", {N}, outcome.data());
  f.write("/weight", {N}, weight.data());
  f.write("/search_value", {N}, value.data());
  f.write("/game_id", {N}, game_id.data());
}

// Reads a dataset and checks its shape: [rows] or [rows, width].
template <typename T>
std::vector<T> read_checked(const Hdf5File& f, const std::string& name, uint64_t rows, uint64_t width = 0) {
  std::vector<uint64_t> dims;
  std::vector<T> v = f.read<T>(name, &dims);
  const std::vector<uint64_t> expected = width ? std::vector<uint64_t>{rows, width} : std::vector<uint64_t>{rows};
  if (dims != expected)
    throw ShardError(f.path() + ": dataset '" + name + "' has the wrong shape for " + std::to_string(rows) + " rows");
  return v;
}

// Fills the common fields of samples (already sized N) and checks them:
// ranges, outcomes, weights, policies in [0, policy_size) summing to 1.
void read_common(const Hdf5File& f, std::vector<Sample>& samples, const SampleSchema& schema) {
  const uint64_t N = samples.size();
  auto bad = [&](const std::string& what) { throw ShardError(f.path() + ": " + what); };
  const auto to_move = read_checked<uint8_t>(f, "/to_move", N);
  const auto ply = read_checked<int16_t>(f, "/ply", N);
  const auto offsets = read_checked<int64_t>(f, "/policy_offsets", N + 1);
  if (offsets[0] != 0) bad("policy_offsets does not start at 0");
  const uint64_t P = uint64_t(offsets.back());
  const auto moves = read_checked<int32_t>(f, "/policy_moves", P);
  const auto probs = read_checked<float>(f, "/policy_probs", P);
  const auto outcome = read_checked<int8_t>(f, "/outcome", N);
  const auto weight = read_checked<float>(f, "/weight", N);
  const auto value = read_checked<float>(f, "/search_value", N);
  const auto game_id = read_checked<int64_t>(f, "/game_id", N);
  for (uint64_t i = 0; i < N; ++i) {
    Sample& s = samples[i];
    const std::string at = " (sample " + std::to_string(i) + ")";
    if (to_move[i] > 1) bad("to_move out of range" + at);
    if (outcome[i] < -1 || outcome[i] > 1) bad("outcome out of range" + at);
    if (outcome[i] == 0 && !schema.draws) bad("a " + schema.game + " outcome of 0" + at);
    if (!std::isfinite(weight[i]) || weight[i] < 0) bad("bad sample weight" + at);
    s.to_move = to_move[i];
    s.ply = ply[i];
    s.outcome = outcome[i];
    s.weight = weight[i];
    s.search_value = value[i];
    s.game_id = game_id[i];
    if (offsets[i + 1] < offsets[i] || uint64_t(offsets[i + 1]) > P) bad("policy_offsets not increasing" + at);
    double total = 0;
    s.policy.clear();
    for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      if (moves[k] < 0 || moves[k] >= schema.policy_size) bad("policy move index out of range" + at);
      if (!std::isfinite(probs[k]) || probs[k] < 0) bad("bad policy probability" + at);
      s.policy.emplace_back(moves[k], probs[k]);
      total += probs[k];
    }
    if (schema.policy_size == 0) continue;  // no policy targets (the loop above took none)
    if (std::abs(total - 1.0) > 1e-3) bad("policy target sums to " + std::to_string(total) + at);
  }
}

// One field's values for every sample, as the dataset's element type T.
template <typename T>
std::vector<T> gather(const std::vector<Sample>& samples, const SampleField& field) {
  std::vector<T> out;
  out.reserve(samples.size() * size_t(field.width));
  for (const Sample& s : samples)
    for (int k = 0; k < field.width; ++k) out.push_back(T(s.get(field, k)));
  return out;
}

template <typename T>
void write_field(Hdf5File& f, const std::vector<Sample>& samples, const SampleField& field) {
  const uint64_t N = samples.size();
  const std::vector<uint64_t> dims = field.width == 1 ? std::vector<uint64_t>{N} : std::vector<uint64_t>{N, uint64_t(field.width)};
  const std::vector<T> values = gather<T>(samples, field);
  f.write("/" + field.name, dims, values.data(), field.width > 1);
}

template <typename T>
void read_field(const Hdf5File& f, std::vector<Sample>& samples, const SampleField& field) {
  const uint64_t N = samples.size();
  const auto values = read_checked<T>(f, "/" + field.name, N, field.width == 1 ? 0 : uint64_t(field.width));
  for (uint64_t i = 0; i < N; ++i)
    for (int k = 0; k < field.width; ++k) {
      const int32_t v = int32_t(values[i * uint64_t(field.width) + uint64_t(k)]);
      if (v < field.lo || v > field.hi)
        throw ShardError(f.path() + ": " + field.name + " out of range (sample " + std::to_string(i) + ")");
      samples[i].set(field, k, v);
    }
}

}  // namespace

void write_shard(const std::string& path, const ShardMeta& meta, const std::vector<Sample>& samples) {
  const SampleSchema& schema = sample_schema(meta.game);
  for (const Sample& s : samples)
    if (s.data.size() != size_t(schema.bytes))
      throw ShardError("cannot write shard " + path + ": a sample is not of the " + schema.game + " schema");
  try {
    nn::write_hdf5_atomically(path, [&](Hdf5File& f) {
      write_common(f, meta, samples);
      for (const SampleField& field : schema.fields) {
        switch (field.type) {
          case FieldType::kU8: write_field<uint8_t>(f, samples, field); break;
          case FieldType::kI8: write_field<int8_t>(f, samples, field); break;
          case FieldType::kI16: write_field<int16_t>(f, samples, field); break;
          case FieldType::kI32: write_field<int32_t>(f, samples, field); break;
        }
      }
    });
  } catch (const nn::Hdf5Error& e) {
    throw ShardError(std::string("cannot write shard: ") + e.what());
  }
}

ShardMeta read_shard_meta(const std::string& path, int64_t* samples) {
  try {
    Hdf5File f = Hdf5File::open_read(path);
    if (!f.has_attr("format") || f.attr_string("format") != kFormat)
      throw ShardError(path + ": not a self-play shard (no format = \"" + kFormat + "\" attribute)");
    if (f.attr_int("format_version") != kShardFormatVersion)
      throw ShardError(path + ": shard format version " + std::to_string(f.attr_int("format_version")) +
                       ", this build reads " + std::to_string(kShardFormatVersion));
    ShardMeta m;
    if (f.has_attr("game")) m.game = f.attr_string("game");
    m.model_id = f.attr_string("model_id");
    m.config_hash = f.attr_string("config_hash");
    if (f.has_attr("mushroom_version")) m.mushroom_version = f.attr_string("mushroom_version");
    m.generator_seed = uint64_t(f.attr_int("generator_seed"));
    m.games = f.attr_int("games");
    if (samples) *samples = f.attr_int("samples");
    return m;
  } catch (const ShardError&) {
    throw;
  } catch (const std::exception& e) {
    throw ShardError(e.what());
  }
}

std::vector<std::string> find_shards(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".h5" && name.find(".tmp") == std::string::npos) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());  // gen-NNNN/shard-<first game id>: oldest first
  return out;
}

Shard read_shard(const std::string& path, const std::string& game) {
  Shard shard;
  int64_t n = 0;
  shard.meta = read_shard_meta(path, &n);
  if (shard.meta.game != game)
    throw ShardError(path + ": a " + shard.meta.game + " shard where " + game + " data was expected");
  if (n < 0) throw ShardError(path + ": negative sample count");
  const SampleSchema* schema = nullptr;
  try {
    schema = &sample_schema(game);
  } catch (const std::invalid_argument& e) {
    throw ShardError(path + ": " + e.what());
  }
  try {
    Hdf5File f = Hdf5File::open_read(path);
    // The samples attribute sizes every sample before any dataset is read:
    // it must be the first field's rows, so that a corrupt count is refused
    // as the wrong shape rather than allocated.
    const std::string first = "/" + schema->fields.front().name;
    if (const std::vector<uint64_t> rows = f.dims(first); rows.empty() || rows[0] != uint64_t(n))
      throw ShardError(path + ": dataset '" + first + "' has the wrong shape for " + std::to_string(n) + " rows");
    shard.samples.assign(size_t(n), empty_sample(*schema));
    // The game's fields first: a shard without them is named by its first.
    for (const SampleField& field : schema->fields) {
      switch (field.type) {
        case FieldType::kU8: read_field<uint8_t>(f, shard.samples, field); break;
        case FieldType::kI8: read_field<int8_t>(f, shard.samples, field); break;
        case FieldType::kI16: read_field<int16_t>(f, shard.samples, field); break;
        case FieldType::kI32: read_field<int32_t>(f, shard.samples, field); break;
      }
    }
    read_common(f, shard.samples, *schema);
  } catch (const ShardError&) {
    throw;
  } catch (const std::exception& e) {
    throw ShardError(e.what());
  }
  return shard;
}

}  // namespace mushroom::selfplay
