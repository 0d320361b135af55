// Self-play: worker threads, each running many games at once (one MCTS per
// game, no locks in trees). Every step collects one leaf from each game and
// evaluates them in one batched call (the minigo/KataGo pattern). Finished
// games' samples go to HDF5 shards (selfplay/shard.h).
//
// Playout-cap randomization (KataGo): a fraction of moves get a full search
// with exploration noise and are recorded as policy targets; the rest get a
// cheap search and are played but not recorded.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "nn/model.h"
#include "selfplay/selfplay_config.h"

namespace mushroom::selfplay {

struct SelfplayProgress {
  int games_done = 0, games_total = 0;
  double seconds = 0;
  double mean_game_plies = 0;
  double batch_fill = 0;  // evaluated leaves / the batches' room (games they were drawn from)
  double device_busy = -1;  // the device's busy fraction when known (the simulated device), else -1
  int64_t samples = 0;
  int64_t nn_positions = 0;
};
// "selfplay: 120/400 games, 95.1 games/min, mean length 41.2 plies, batch
// fill 97%, 3012 samples, 5120 evals/s" (and ", device busy 93%" when known).
std::string format_progress(const SelfplayProgress& p);


struct SelfplayJob {
  SelfplayConfig config;
  std::shared_ptr<const nn::Model> model;  // null: the bootstrap evaluator
  std::string model_id = "none";
  std::string config_hash = "none";
  std::string out_dir;
  int games = 0;                 // games to play in this job
  int64_t first_game_id = 0;     // game k of the job has id first_game_id + k; its board seed derives from it
  // Goes into the shard names (shard-<first game id>-<tag>-wNN.h5) so that
  // actors on many machines never write the same name, e.g. "node7.a003";
  // letters, digits, '.', '-' and '_' only. Empty: shard-<id>-wNN.h5.
  std::string shard_tag;
  std::function<void(const SelfplayProgress&)> progress;  // called every few seconds and at the end
  double progress_seconds = 10;
};

SelfplayProgress run_selfplay(const SelfplayJob& job);

// The board seed of a game id under a run seed.
uint64_t board_seed(uint64_t run_seed, int64_t game_id);

}  // namespace mushroom::selfplay
