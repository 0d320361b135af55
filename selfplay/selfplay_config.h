// Self-play settings (the [selfplay] table of a run config). The member
// initializers are the defaults; selfplay_settings() declares each key's
// range and help (configs/defaults.toml lists them all).
#pragma once
#include <cstdint>
#include <string>

#include "util/settings.h"

namespace mushroom::selfplay {

struct SelfplayConfig {
  int games = 200;                  // games per generation
  int workers = 2;                  // threads, each with its own games and evaluator
  int games_in_flight = 16;         // concurrent games per worker (the batch size)
  int full_sims = 160;              // simulations of a full search (recorded)
  int cheap_sims = 32;              // simulations of a cheap search (not recorded)
  double full_search_fraction = 0.25;
  std::string exploration = "dirichlet";  // dirichlet | gumbel
  double dirichlet_alpha = 0.3;
  double dirichlet_fraction = 0.25;
  int gumbel_k = 16;
  double temperature_start = 1.0;   // move sampling temperature at ply 0...
  double temperature_end = 0.2;     // ...decaying towards this...
  double temperature_halflife = 20; // ...with this half-life in plies
  double cpuct = 1.25;
  double score_weight = 0.3;
  bool solver = true;               // exact solving of tiny endgames at leaves
  std::string backend = "cpu";      // cpu (Eigen, one position at a time) | torch (batched) | simulated
  std::string device = "cpu";       // for backend = torch: cpu | cuda | cuda:N
  // Each worker splits its games in two and searches one half while the
  // other half's batch is on the device (selfplay/async_call.h); at the end
  // of a job, a worker left with few games hands them to another.
  bool pipeline = false;
  // 0: each worker sends its batches to the device itself. N: every worker
  // queues its batches for the device threads, which send what is queued
  // as calls of at most N positions (nn/device_queue.h), so that the device
  // sees few large batches.
  int device_batch = 0;
  // A job ends once `games` have finished; the games still in flight go on
  // in the next job of the same process (the next generation, or an
  // actor's next chunk), so that no generation ends in a tail of
  // thinning batches. Games in flight when the process ends are lost.
  bool carry_games = false;
  // With device_batch: the device's server threads, each with its own
  // backend (its own stream on a GPU), so that one launches while another's
  // kernels run.
  int device_threads = 2;
  // backend = simulated: an H100's batch times (nn/simulated_device.h),
  // stretched by this factor (the box's cores over this machine's).
  double simulated_time_scale = 1.0;
  std::string bootstrap = "material";  // evaluator before any model: material | uniform
  int samples_per_shard = 4096;
  int random_opening_plies = 0;  // each game starts with k uniformly random moves (not recorded), k drawn from 0..this
  double proven_sample_fraction = 1.0;  // share of searches with a proven root (won, lost or drawn) that are recorded
  int sample_games = 4;  // the job's first games also saved as annotated logs in OUT/games/ (for the viewer)
  uint64_t seed = 1;  // from [run] seed
};

const SettingsTable<SelfplayConfig>& selfplay_settings();

}  // namespace mushroom::selfplay
