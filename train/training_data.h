// The training window: the newest samples across the run's shards, and
// batches drawn from it with a random board symmetry per sample.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "nn/features.h"
#include "selfplay/shard.h"
#include "train/loss.h"
#include "util/rng.h"

namespace mushroom::train {

using selfplay::find_shards;  // selfplay/shard.h

// find_shards of a run's data folder, only its gen-NNNN folders from
// generation `first` on (first <= 1: every shard under dir, as find_shards).
// With first > 1, dir must hold gen-NNNN folders (throws, naming dir and
// the key, if it has none); shards outside them are left out.
// train.window_first_generation.
std::vector<std::string> find_shards_from_generation(const std::string& dir, int first);

// The games and samples of every finished shard under dir, from their
// headers (no samples are read).
struct ShardTotals {
  int64_t games = 0, samples = 0;
};
ShardTotals shard_totals(const std::string& dir);

struct TrainingWindow {
  nn::GameKind game = nn::GameKind::kMushroom;
  std::vector<selfplay::Sample> samples;  // of the game's schema, oldest first
  std::vector<std::string> used;          // shards read
  std::vector<std::string> skipped;       // "path: reason" for shards that failed their check
  size_t size() const { return samples.size(); }
};

// Reads shards from the newest backwards until `window_samples` samples are
// held. A shard that fails to open or fails its schema check is reported
// through warn (by name, with the reason) and skipped, never used; so is a
// shard of another game.
TrainingWindow load_window(const std::vector<std::string>& shards_oldest_first, int window_samples,
                           const std::function<void(const std::string&)>& warn,
                           nn::GameKind game = nn::GameKind::kMushroom);
// The same for samples of a schema by name (e.g. "mushroom-eval"; the
// window's game is then the mushroom game).
TrainingWindow load_window(const std::vector<std::string>& shards_oldest_first, int window_samples,
                           const std::function<void(const std::string&)>& warn, const std::string& schema);

// A batch of the given samples, each under a random symmetry (moves and
// targets transformed with the board).
Batch make_batch(const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng);
// A batch of the window's game (its registered encoder,
// train/batch_encoders.h; other games' are make_game_batch, train/game_batch.h); indices into window.size(),
// planes in the net's input layout (0: the game's newest).
Batch make_batch(const TrainingWindow& window, const std::vector<int>& indices, Rng& rng, int feature_version = 0);

}  // namespace mushroom::train
