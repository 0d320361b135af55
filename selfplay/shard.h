// Training data: self-play samples (selfplay/sample.h) in HDF5 shards, one
// writer and one reader for every game.
//
// Shard schema (format = "mushroom-selfplay", format_version = 1). N samples,
// P policy entries in all; every target is from the side to move's view.
// Every game's shard has:
//   /to_move         uint8 [N]       0 first player, 1 second
//   /ply             int16 [N]
//   /policy_offsets  int64 [N + 1]   sample i's entries are [offsets[i], offsets[i+1])
//   /policy_moves    int32 [P]       policy index (mushroom: Move::index(), 28900 = pass;
//                                    blockgame: slots of blockgame/blockgame_game.h, 0..149)
//   /policy_probs    float [P]       search target probability, each sample sums to 1
//                                    (a schema without policy targets has none)
//   /outcome         int8  [N]       +1 win, 0 draw, -1 loss at the end of the game
//   /weight          float [N]       sample weight
//   /search_value    float [N]       the search's value at the root (for inspection)
//   /game_id         int64 [N]
// and one dataset per field of its game's SampleSchema ([N] or [N, width]):
//   mushroom:  /digits uint8 [N, 170] (0 = taken), /owners uint8 [N, 170] (0
//              nobody, 1 first player, 2 second), /last_pass uint8 [N],
//              /margin int16 [N] (final score margin), /ownership int8 [N, 170]
//              (final owner: +1 the side to move, -1 the opponent, 0 nobody)
//   mushroom-eval3 (the learned alpha-beta evaluation's data, what
//              self-play writes; no policy entries, P = 0):
//              /cells uint8 [N, 170] (deflated; a cell's digit 1..9, or 10
//              the first player's, 11 the second's, 0 empty and nobody's),
//              /last_pass uint8 [N], /search_score int16 [N] (alpha-beta's
//              score at the label depth or node budget, 1/16 cells; with
//              /exact, 16 times the proven final margin), /exact uint8 [N]
//              (1: the endgame solver proved it), /random_move uint8 [N]
//              (1: the move played from the position was a random one, so
//              the next position does not follow from its search),
//              /margin int16 [N] (final
//              score margin), /teacher int16 [N] (the conv net's value
//              P(win) - P(loss), times 1000), /has_teacher uint8 [N] (0: no
//              teacher; /teacher is 0). About 47 bytes a position on disk.
//   mushroom-eval2 (schema 2, read but no longer written): mushroom-eval3
//              without /random_move.
//   mushroom-eval (schema 1, read but no longer written): /digits and
//              /owners as mushroom instead of /cells, no /exact; the rest
//              as mushroom-eval2. The learned evaluation's loader
//              (train/nnue/eval_window.h) and relabel read all three;
//              anything else that expects one schema refuses the others by
//              name.
//   blockgame: /filled int32 [N] (filled cells, bit r * 5 + c); no draws
//   tictactoe: /marks int16 [N, 2] (the first and the second player's cells)
// Root attributes: game ("mushroom" when absent: older shards), model_id,
// config_hash, generator_seed, games (finished games in the shard), samples,
// created (UTC). Shards are written to a temp name and renamed when complete.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "selfplay/sample.h"

namespace mushroom::selfplay {

constexpr int kShardFormatVersion = 1;

struct ShardMeta {
  std::string model_id;
  std::string config_hash;
  uint64_t generator_seed = 0;
  int64_t games = 0;
  std::string game = "mushroom";  // picks the schema the writer uses; read from the file
  // The build that wrote it: each shard records this build's (util/version.h);
  // read back, "" for shards from before the attribute.
  std::string mushroom_version{};
};

struct Shard {
  ShardMeta meta;
  std::vector<Sample> samples;
};

class ShardError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes samples of meta.game's schema.
void write_shard(const std::string& path, const ShardMeta& meta, const std::vector<Sample>& samples);
// Reads and checks the schema of the expected game; throws ShardError
// naming the file and the first problem (another game's shard, missing
// dataset, wrong shape, out-of-range value, policy that does not sum to 1,
// ...).
Shard read_shard(const std::string& path, const std::string& game = "mushroom");
// Every finished shard (*.h5, no temp files) under dir, oldest first: by
// generation folder, then by name. None when dir does not exist.
std::vector<std::string> find_shards(const std::string& dir);
// Only the root attributes (cheap: for counting finished games).
ShardMeta read_shard_meta(const std::string& path, int64_t* samples = nullptr);

}  // namespace mushroom::selfplay
