#include "selfplay/shard.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "nn/hdf5_file.h"

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

TrainingSample sample_from_position(const Position& pos) {
  TrainingSample s;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      s.digits[r * kCols + c] = uint8_t(pos.digit(r, c));
      s.owners[r * kCols + c] = uint8_t(pos.owner(r, c));
    }
  s.to_move = uint8_t(pos.to_move());
  s.last_pass = pos.last_move_was_pass() ? 1 : 0;
  s.ply = int16_t(pos.ply());
  return s;
}

Position position_of(const TrainingSample& s) {
  Position p;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      p.set_digit(r, c, s.digits[r * kCols + c]);
      p.set_owner(r, c, Owner(s.owners[r * kCols + c]));
    }
  p.set_to_move(Player(s.to_move));
  p.set_last_pass(s.last_pass != 0);
  p.set_ply(s.ply);
  return p;
}

void write_shard(const std::string& path, const ShardMeta& meta, const std::vector<TrainingSample>& samples) {
  const uint64_t N = samples.size();
  std::vector<uint8_t> digits, owners, to_move, last_pass;
  std::vector<int16_t> ply, margin;
  std::vector<int64_t> offsets{0}, game_id;
  std::vector<int32_t> moves;
  std::vector<float> probs, weight, value;
  std::vector<int8_t> outcome, ownership;
  for (const TrainingSample& s : samples) {
    digits.insert(digits.end(), s.digits.begin(), s.digits.end());
    owners.insert(owners.end(), s.owners.begin(), s.owners.end());
    ownership.insert(ownership.end(), s.ownership.begin(), s.ownership.end());
    to_move.push_back(s.to_move);
    last_pass.push_back(s.last_pass);
    ply.push_back(s.ply);
    for (const auto& [m, p] : s.policy) {
      moves.push_back(m);
      probs.push_back(p);
    }
    offsets.push_back(int64_t(moves.size()));
    outcome.push_back(s.outcome);
    margin.push_back(s.margin);
    weight.push_back(s.weight);
    value.push_back(s.search_value);
    game_id.push_back(s.game_id);
  }
  try {
    nn::write_hdf5_atomically(path, [&](Hdf5File& f) {
      f.set_attr("format", std::string(kFormat));
      f.set_attr("format_version", int64_t(kShardFormatVersion));
      f.set_attr("model_id", meta.model_id);
      f.set_attr("config_hash", meta.config_hash);
      f.set_attr("generator_seed", int64_t(meta.generator_seed));
      f.set_attr("games", meta.games);
      f.set_attr("samples", int64_t(N));
      f.set_attr("created", utc_now());
      const uint64_t P = moves.size();
      f.write("/digits", {N, uint64_t(kCells)}, digits.data(), true);
      f.write("/owners", {N, uint64_t(kCells)}, owners.data(), true);
      f.write("/to_move", {N}, to_move.data());
      f.write("/last_pass", {N}, last_pass.data());
      f.write("/ply", {N}, ply.data());
      f.write("/policy_offsets", {N + 1}, offsets.data());
      f.write("/policy_moves", {P}, moves.data(), true);
      f.write("/policy_probs", {P}, probs.data(), true);
      f.write("/outcome", {N}, outcome.data());
      f.write("/margin", {N}, margin.data());
      f.write("/ownership", {N, uint64_t(kCells)}, ownership.data(), true);
      f.write("/weight", {N}, weight.data());
      f.write("/search_value", {N}, value.data());
      f.write("/game_id", {N}, game_id.data());
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
    m.model_id = f.attr_string("model_id");
    m.config_hash = f.attr_string("config_hash");
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

namespace {
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
}  // namespace

Shard read_shard(const std::string& path) {
  Shard shard;
  int64_t n = 0;
  shard.meta = read_shard_meta(path, &n);
  try {
    Hdf5File f = Hdf5File::open_read(path);
    const uint64_t N = uint64_t(n);
    auto bad = [&](const std::string& what) { throw ShardError(path + ": " + what); };
    const auto digits = read_checked<uint8_t>(f, "/digits", N, kCells);
    const auto owners = read_checked<uint8_t>(f, "/owners", N, kCells);
    const auto to_move = read_checked<uint8_t>(f, "/to_move", N);
    const auto last_pass = read_checked<uint8_t>(f, "/last_pass", N);
    const auto ply = read_checked<int16_t>(f, "/ply", N);
    const auto offsets = read_checked<int64_t>(f, "/policy_offsets", N + 1);
    const uint64_t P = uint64_t(offsets.back());
    const auto moves = read_checked<int32_t>(f, "/policy_moves", P);
    const auto probs = read_checked<float>(f, "/policy_probs", P);
    const auto outcome = read_checked<int8_t>(f, "/outcome", N);
    const auto margin = read_checked<int16_t>(f, "/margin", N);
    const auto ownership = read_checked<int8_t>(f, "/ownership", N, kCells);
    const auto weight = read_checked<float>(f, "/weight", N);
    const auto value = read_checked<float>(f, "/search_value", N);
    const auto game_id = read_checked<int64_t>(f, "/game_id", N);
    if (offsets[0] != 0) bad("policy_offsets does not start at 0");
    shard.samples.resize(N);
    for (uint64_t i = 0; i < N; ++i) {
      TrainingSample& s = shard.samples[i];
      const std::string at = " (sample " + std::to_string(i) + ")";
      for (int c = 0; c < kCells; ++c) {
        s.digits[c] = digits[i * kCells + c];
        s.owners[c] = owners[i * kCells + c];
        s.ownership[c] = ownership[i * kCells + c];
        if (s.digits[c] > 9) bad("digit out of range" + at);
        if (s.owners[c] > 2) bad("owner out of range" + at);
        if (s.ownership[c] < -1 || s.ownership[c] > 1) bad("ownership target out of range" + at);
      }
      if (to_move[i] > 1 || last_pass[i] > 1) bad("to_move/last_pass out of range" + at);
      if (outcome[i] < -1 || outcome[i] > 1) bad("outcome out of range" + at);
      if (!std::isfinite(weight[i]) || weight[i] < 0) bad("bad sample weight" + at);
      s.to_move = to_move[i];
      s.last_pass = last_pass[i];
      s.ply = ply[i];
      s.outcome = outcome[i];
      s.margin = margin[i];
      s.weight = weight[i];
      s.search_value = value[i];
      s.game_id = game_id[i];
      if (offsets[i + 1] < offsets[i] || uint64_t(offsets[i + 1]) > P) bad("policy_offsets not increasing" + at);
      double total = 0;
      for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (moves[k] < 0 || moves[k] >= kPolicySize) bad("policy move index out of range" + at);
        if (!std::isfinite(probs[k]) || probs[k] < 0) bad("bad policy probability" + at);
        s.policy.emplace_back(moves[k], probs[k]);
        total += probs[k];
      }
      if (std::abs(total - 1.0) > 1e-3) bad("policy target sums to " + std::to_string(total) + at);
    }
    return shard;
  } catch (const ShardError&) {
    throw;
  } catch (const std::exception& e) {
    throw ShardError(e.what());
  }
}

}  // namespace mushroom::selfplay
