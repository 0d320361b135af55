#include "selfplay/shard.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>

#include "nn/hdf5_file.h"
#include "nn/features.h"

namespace mushroom::selfplay {

using nn::Hdf5File;

namespace {
constexpr const char* kFormat = "mushroom-selfplay";
constexpr int kBlockgamePolicySlots = nn::kBlockgamePolicySize;
constexpr uint32_t kBlockgameFull = (1u << (nn::kBlockgameSize * nn::kBlockgameSize)) - 1;

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

namespace {

// The datasets and attributes every game's shard has. S is TrainingSample
// or BlockgameSample (the same field names).
template <typename S>
void write_common(Hdf5File& f, const ShardMeta& meta, const std::string& game, const std::vector<S>& samples) {
  const uint64_t N = samples.size();
  std::vector<uint8_t> to_move;
  std::vector<int16_t> ply;
  std::vector<int64_t> offsets{0}, game_id;
  std::vector<int32_t> moves;
  std::vector<float> probs, weight, value;
  std::vector<int8_t> outcome;
  for (const S& s : samples) {
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
  f.set_attr("game", game);
  f.set_attr("model_id", meta.model_id);
  f.set_attr("config_hash", meta.config_hash);
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

template <typename S>
void write_any_shard(const std::string& path, const ShardMeta& meta, const std::string& game,
                     const std::vector<S>& samples, const std::function<void(Hdf5File&)>& write_positions) {
  try {
    nn::write_hdf5_atomically(path, [&](Hdf5File& f) {
      write_common(f, meta, game, samples);
      write_positions(f);
    });
  } catch (const nn::Hdf5Error& e) {
    throw ShardError(std::string("cannot write shard: ") + e.what());
  }
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
template <typename S>
void read_common(const Hdf5File& f, std::vector<S>& samples, int policy_size) {
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
    S& s = samples[i];
    const std::string at = " (sample " + std::to_string(i) + ")";
    if (to_move[i] > 1) bad("to_move out of range" + at);
    if (outcome[i] < -1 || outcome[i] > 1) bad("outcome out of range" + at);
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
      if (moves[k] < 0 || moves[k] >= policy_size) bad("policy move index out of range" + at);
      if (!std::isfinite(probs[k]) || probs[k] < 0) bad("bad policy probability" + at);
      s.policy.emplace_back(moves[k], probs[k]);
      total += probs[k];
    }
    if (std::abs(total - 1.0) > 1e-3) bad("policy target sums to " + std::to_string(total) + at);
  }
}

// Opens a shard of the given game and runs read(f, N); errors become ShardError.
template <typename F>
void read_any_shard(const std::string& path, const std::string& game, ShardMeta* meta_out, F read) {
  int64_t n = 0;
  const ShardMeta meta = read_shard_meta(path, &n);
  if (meta.game != game) throw ShardError(path + ": a " + meta.game + " shard where " + game + " data was expected");
  if (n < 0) throw ShardError(path + ": negative sample count");
  if (meta_out) *meta_out = meta;
  try {
    Hdf5File f = Hdf5File::open_read(path);
    read(f, uint64_t(n));
  } catch (const ShardError&) {
    throw;
  } catch (const std::exception& e) {
    throw ShardError(e.what());
  }
}

}  // namespace

void write_shard(const std::string& path, const ShardMeta& meta, const std::vector<TrainingSample>& samples) {
  const uint64_t N = samples.size();
  std::vector<uint8_t> digits, owners, last_pass;
  std::vector<int16_t> margin;
  std::vector<int8_t> ownership;
  for (const TrainingSample& s : samples) {
    digits.insert(digits.end(), s.digits.begin(), s.digits.end());
    owners.insert(owners.end(), s.owners.begin(), s.owners.end());
    ownership.insert(ownership.end(), s.ownership.begin(), s.ownership.end());
    last_pass.push_back(s.last_pass);
    margin.push_back(s.margin);
  }
  write_any_shard(path, meta, "mushroom", samples, [&](Hdf5File& f) {
    f.write("/digits", {N, uint64_t(kCells)}, digits.data(), true);
    f.write("/owners", {N, uint64_t(kCells)}, owners.data(), true);
    f.write("/last_pass", {N}, last_pass.data());
    f.write("/margin", {N}, margin.data());
    f.write("/ownership", {N, uint64_t(kCells)}, ownership.data(), true);
  });
}

void write_blockgame_shard(const std::string& path, const ShardMeta& meta, const std::vector<BlockgameSample>& samples) {
  std::vector<int32_t> filled;
  for (const BlockgameSample& s : samples) filled.push_back(int32_t(s.filled));
  write_any_shard(path, meta, "blockgame", samples,
                  [&](Hdf5File& f) { f.write("/filled", {uint64_t(samples.size())}, filled.data()); });
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

Shard read_shard(const std::string& path) {
  Shard shard;
  read_any_shard(path, "mushroom", &shard.meta, [&](const Hdf5File& f, uint64_t N) {
    auto bad = [&](const std::string& what) { throw ShardError(path + ": " + what); };
    const auto digits = read_checked<uint8_t>(f, "/digits", N, kCells);
    const auto owners = read_checked<uint8_t>(f, "/owners", N, kCells);
    const auto last_pass = read_checked<uint8_t>(f, "/last_pass", N);
    const auto margin = read_checked<int16_t>(f, "/margin", N);
    const auto ownership = read_checked<int8_t>(f, "/ownership", N, kCells);
    shard.samples.resize(N);
    read_common(f, shard.samples, kPolicySize);
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
      if (last_pass[i] > 1) bad("last_pass out of range" + at);
      s.last_pass = last_pass[i];
      s.margin = margin[i];
    }
  });
  return shard;
}

std::vector<BlockgameSample> read_blockgame_shard(const std::string& path, ShardMeta* meta) {
  std::vector<BlockgameSample> samples;
  read_any_shard(path, "blockgame", meta, [&](const Hdf5File& f, uint64_t N) {
    const auto filled = read_checked<int32_t>(f, "/filled", N);
    samples.resize(N);
    read_common(f, samples, kBlockgamePolicySlots);
    for (uint64_t i = 0; i < N; ++i) {
      if (filled[i] < 0 || uint32_t(filled[i]) > kBlockgameFull)
        throw ShardError(path + ": filled cells out of range (sample " + std::to_string(i) + ")");
      if (samples[i].outcome == 0) throw ShardError(path + ": a blockgame outcome of 0 (sample " + std::to_string(i) + ")");
      samples[i].filled = uint32_t(filled[i]);
    }
  });
  return samples;
}

}  // namespace mushroom::selfplay
