#include "selfplay/selfplay_config.h"

namespace mushroom::selfplay {

const SettingsTable<SelfplayConfig>& selfplay_settings() {
#define FIELD(name) [](auto& c) -> auto& { return c.name; }
  static const SettingsTable<SelfplayConfig> table =
      SettingsTable<SelfplayConfig>("selfplay")
          .integer("games", FIELD(games), 1, 10'000'000, "games per generation")
          .integer("threads", FIELD(workers), 1, 256, "threads; each runs its own games and evaluator")
          .old_spelling("workers")
          .integer("games_in_flight", FIELD(games_in_flight), 1, 100'000,
                   "games per worker played at once (one leaf each per batched step)")
          .integer("full_sims", FIELD(full_sims), 1, 1'000'000,
                   "simulations of a full search; its visits become a policy target")
          .integer("cheap_sims", FIELD(cheap_sims), 1, 1'000'000,
                   "simulations of a cheap search; played, not recorded (<= full_sims)")
          .real("full_search_fraction", FIELD(full_search_fraction), 0.0, 1.0,
                "share of moves that get a full search (KataGo's playout cap randomization)")
          .choice("exploration", FIELD(exploration), {"dirichlet", "gumbel"},
                  "dirichlet: noise on the root priors, moves sampled by visits; gumbel: Gumbel root sampling")
          .real("dirichlet_alpha", FIELD(dirichlet_alpha), 0.0, 10.0, "Dirichlet concentration (exploration = dirichlet)")
          .real("dirichlet_fraction", FIELD(dirichlet_fraction), 0.0, 1.0, "weight of the noise in the root priors")
          .integer("gumbel_k", FIELD(gumbel_k), 1, 1024, "root candidates (exploration = gumbel)")
          .real("temperature_start", FIELD(temperature_start), 0.0, 10.0, "move sampling temperature at the first ply...")
          .real("temperature_end", FIELD(temperature_end), 0.0, 10.0, "...decays towards this...")
          .real("temperature_halflife", FIELD(temperature_halflife), 0.1, 1000.0, "...halving every this many plies")
          .real("cpuct", FIELD(cpuct), 0.0, 100.0, "PUCT exploration constant")
          .real("score_weight", FIELD(score_weight), 0.0, 10.0, "weight of the expected margin in the search's utility")
          .flag("solver", FIELD(solver), "solve tiny endgames (<= 3 rectangles) exactly at leaves")
          .choice("backend", FIELD(backend), {"cpu", "torch", "simulated"},
                  "cpu: the Eigen path, fastest on a CPU; torch: one batched LibTorch call per step; simulated: "
                  "an H100's batch times with neutral outputs, to measure the device's use without one")
          .device("device", FIELD(device), "LibTorch device for backend = torch")
          .flag("pipeline", FIELD(pipeline),
                "each worker keeps two batches: it searches half its games while the other half's batch is on the "
                "device; near the end, a worker left with few games hands them to another (for GPU backends)")
          .integer("device_batch", FIELD(device_batch), 0, 65536,
                   "0: each worker sends its own batches to the device; N: all workers queue their batches for the "
                   "device threads, which send what is queued in calls of up to N positions (for GPU backends)")
          .flag("carry_games", FIELD(carry_games),
                "a generation ends once its games have finished; the games still in flight go on in the next "
                "generation (or actor chunk) of the same process, so that no generation ends on a tail of thinning "
                "batches")
          .integer("device_threads", FIELD(device_threads), 1, 16,
                   "with device_batch: server threads feeding the device, each with its own backend (its own stream "
                   "on a GPU), so that one launches its call while another's kernels run")
          .real("simulated_time_scale", FIELD(simulated_time_scale), 0.01, 1000.0,
                "backend = simulated: stretch the device's batch times by this (the simulated box's cores over "
                "this machine's)")
          .choice("bootstrap", FIELD(bootstrap), {"material", "uniform"},
                  "evaluator before the first model: material (margin heuristic) or uniform")
          .integer("samples_per_shard", FIELD(samples_per_shard), 1, 10'000'000,
                   "a worker writes a shard after this many samples (and at the end)")
          .integer("sample_games", FIELD(sample_games), 0, 1000,
                   "the first games of each generation also saved as logs with the search's view (data/gen-N/games/)")
          .integer("random_opening_plies", FIELD(random_opening_plies), 0, 1000,
                   "each game first plays k uniformly random moves (not recorded), k drawn from 0..this")
          .real("proven_sample_fraction", FIELD(proven_sample_fraction), 0.0, 1.0,
                "share of searches whose root the search proved (won, lost or drawn) that become samples");
#undef FIELD
  return table;
}

}  // namespace mushroom::selfplay
