// Training data: self-play samples in HDF5 shards.
//
// Shard schema (format = "mushroom-selfplay", format_version = 1). N samples,
// P policy entries in all; every target is from the side to move's view.
//   /digits          uint8 [N, 170]  the position's digits (0 = taken)
//   /owners          uint8 [N, 170]  0 nobody, 1 first player, 2 second player
//   /to_move         uint8 [N]       0 first player, 1 second
//   /last_pass       uint8 [N]       1 when the previous move was a pass
//   /ply             int16 [N]
//   /policy_offsets  int64 [N + 1]   sample i's entries are [offsets[i], offsets[i+1])
//   /policy_moves    int32 [P]       move index (Move::index(); 28900 = pass)
//   /policy_probs    float [P]       search target probability, each sample sums to 1
//   /outcome         int8  [N]       +1 win, 0 draw, -1 loss at the end of the game
//   /margin          int16 [N]       final score margin
//   /ownership       int8  [N, 170]  final owner: +1 the side to move, -1 the opponent, 0 nobody
//   /weight          float [N]       sample weight
//   /search_value    float [N]       the search's value at the root (for inspection)
//   /game_id         int64 [N]
// Root attributes: game ("mushroom"; absent in older shards), model_id,
// config_hash, generator_seed, games (finished games in the shard), samples,
// created (UTC). Shards are written to a temp name and renamed when complete.
//
// BLOCKGAME shards (game = "blockgame", configs/blockgame.toml) hold, instead
// of digits, owners, last_pass, margin and ownership:
//   /filled          int32 [N]       filled cells, bit r * 5 + c
// and their policy_moves are slots (blockgame/blockgame_game.h: 0..149); outcome
// is +1 or -1, never 0.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mushroom/position.h"

namespace mushroom::selfplay {

constexpr int kShardFormatVersion = 1;

struct TrainingSample {
  std::array<uint8_t, kCells> digits{};
  std::array<uint8_t, kCells> owners{};
  uint8_t to_move = 0;
  uint8_t last_pass = 0;
  int16_t ply = 0;
  std::vector<std::pair<int32_t, float>> policy;  // (move index, probability)
  int8_t outcome = 0;
  int16_t margin = 0;
  std::array<int8_t, kCells> ownership{};
  float weight = 1;
  float search_value = 0;
  int64_t game_id = 0;
};

// The position part of a sample, both ways.
TrainingSample sample_from_position(const Position& pos);
Position position_of(const TrainingSample& s);

// A BLOCKGAME sample: the same targets, the position as its filled cells.
struct BlockgameSample {
  uint32_t filled = 0;
  uint8_t to_move = 0;
  int16_t ply = 0;
  std::vector<std::pair<int32_t, float>> policy;  // (slot, probability)
  int8_t outcome = 0;
  float weight = 1;
  float search_value = 0;
  int64_t game_id = 0;
};

struct ShardMeta {
  std::string model_id;
  std::string config_hash;
  uint64_t generator_seed = 0;
  int64_t games = 0;
  std::string game = "mushroom";  // read from the file; the writers set it
};

struct Shard {
  ShardMeta meta;
  std::vector<TrainingSample> samples;
};

class ShardError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write_shard(const std::string& path, const ShardMeta& meta, const std::vector<TrainingSample>& samples);
// Reads and checks the schema; throws ShardError naming the file and the
// first problem (missing dataset, wrong shape, out-of-range value, policy
// that does not sum to 1, ...).
Shard read_shard(const std::string& path);
// BLOCKGAME shards: written with game = "blockgame"; read_blockgame_shard
// checks them as read_shard does, and each reader refuses the other game's
// shards by name.
void write_blockgame_shard(const std::string& path, const ShardMeta& meta, const std::vector<BlockgameSample>& samples);
std::vector<BlockgameSample> read_blockgame_shard(const std::string& path, ShardMeta* meta = nullptr);
// Only the root attributes (cheap: for counting finished games).
ShardMeta read_shard_meta(const std::string& path, int64_t* samples = nullptr);

}  // namespace mushroom::selfplay
