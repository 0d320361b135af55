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
  // Evaluated leaves / the batches' room (the games they were drawn from);
  // with a device queue (selfplay.device_batch), the device calls' mean
  // size / device_batch.
  double batch_fill = 0;
  double device_busy = -1;  // the device's busy fraction when known (the simulated device, or the share of time a
                            // queued device had a call in flight), else -1
  int64_t samples = 0;
  int64_t nn_positions = 0;  // leaves the net evaluated; in alpha-beta self-play, the searches' nodes
  bool alpha_beta = false;   // alpha-beta self-play (the learned evaluation's): no batches
};
// The conv net's: "selfplay: 120/400 games, 95.1 games/min, mean length
// 41.2 plies, batch fill 97%, 3012 samples, 5120 evals/s" (and ", device
// busy 93%" when known); alpha-beta self-play's: "selfplay: 12/40 games,
// 5.1 games/min, 3.4 positions/s, mean length 41.2 plies, 480 samples,
// 210000 nodes/s". Then the time run and, at the pace so far, the time
// left: ", elapsed 0:02:21, left about 0:05:31".
std::string format_progress(const SelfplayProgress& p);

// Several jobs' figures as one, for format_progress: games, samples and
// evaluations summed over the jobs' seconds; the batch fill as positions
// over the calls' room, the device's busy fraction weighted by each job's
// seconds.
class SelfplayTotals {
 public:
  void add(const SelfplayProgress& p);
  int jobs() const { return jobs_; }
  SelfplayProgress sum() const;

 private:
  int jobs_ = 0;
  SelfplayProgress sum_;  // the summed counts and seconds
  double plies_ = 0, busy_seconds_ = 0, room_ = 0;
  bool busy_known_ = false;
};

// Games in flight handed from one job to the next (selfplay.carry_games):
// the holder keeps them between run_selfplay calls. Opaque here; made by
// make_game_carry().
struct GameCarry;
std::shared_ptr<GameCarry> make_game_carry();
size_t carried_games(const GameCarry& carry);

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
  // Set with selfplay.carry_games: the job first takes the games this holds,
  // keeps every worker's games in flight full until `games` have finished,
  // and leaves the unfinished ones here for the next job (which may play
  // them on with another model). Each shard holds either carried games or
  // the job's own. Null: the job plays exactly `games` games and ends on
  // the tail of its last ones.
  std::shared_ptr<GameCarry> carry;
  std::function<void(const SelfplayProgress&)> progress;  // called every few seconds and at the end
  double progress_seconds = 10;
};

SelfplayProgress run_selfplay(const SelfplayJob& job);

// The board seed of a game id under a run seed.
uint64_t board_seed(uint64_t run_seed, int64_t game_id);

}  // namespace mushroom::selfplay
