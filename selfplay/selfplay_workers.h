// What every game's self-play shares (selfplay_runner.cpp for the mushroom
// game, game_selfplay.h for the learnable games): the job's counters, the worker
// threads with their progress reporter, the batched search step, and the
// move choice by visits.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "search/mcts.h"
#include "selfplay/selfplay_runner.h"
#include "selfplay/shard.h"
#include "util/rng.h"

namespace mushroom::selfplay {

// Counters of one job, shared by its workers.
struct SelfplayCounters {
  explicit SelfplayCounters(const SelfplayJob& j) : job(j) {}
  const SelfplayJob& job;
  std::atomic<int> next_game{0};
  std::atomic<int> games_done{0};
  std::atomic<int64_t> plies{0} /* of finished games */, samples{0}, nn_positions{0}, steps{0}, leaves{0};
  // The batches' room: games in flight per batch, summed over the steps
  // (batch fill is leaves / capacity).
  std::atomic<int64_t> capacity{0};
  // Alpha-beta self-play (the learned evaluation's): nn_positions counts
  // search nodes, and there are no batches to fill.
  bool alpha_beta = false;
  // The device's busy fraction so far, when the backend can tell (the
  // simulated device); unset otherwise.
  std::function<double()> device_busy;
  // The device calls' mean fill when one device queue merges every
  // worker's batches (selfplay.device_batch); unset otherwise, and the batch
  // fill is then the workers' own.
  std::function<double()> device_fill;
  // Takes the next game of the job: its index k (id first_game_id + k), or
  // nothing when none is left.
  // With a carry, new games start until `games` have finished.
  std::optional<int> take_game() {
    if (job.carry) {
      if (games_done.load() >= job.games) return std::nullopt;
      return next_game.fetch_add(1);
    }
    const int k = next_game.fetch_add(1);
    if (k >= job.games) return std::nullopt;
    return k;
  }
  // With a carry: the job's games have finished, and the games in flight
  // are to be handed on.
  bool finished() const { return job.carry && games_done.load() >= job.games; }
};

// Runs work(worker_index) on job.config.workers threads, reporting progress
// every job.progress_seconds and at the end; rethrows a worker's error (the
// others then start no new games).
SelfplayProgress run_worker_threads(SelfplayCounters& counters, const std::function<void(int)>& work);

// One game's search as the batched step sees it.
template <typename G>
struct SearchSlot {
  Mcts<G> mcts;
  int sims_target = 0, sims_done = 0;
  explicit SearchSlot(const MctsConfig& c) : mcts(c) {}
  bool root_settled() const {
    return mcts.root().expanded && mcts.root().solved != Mcts<G>::kUnsolved;
  }
  bool searched() const { return sims_done >= sims_target || root_settled(); }
};

// One batch of leaves from some of a worker's games (each a Record with a
// `search` SearchSlot<G>): collect() lets every game still searching select
// a leaf (games whose selections end in solved or terminal nodes need no
// evaluation and keep selecting), evaluate() sends them all in one call, and
// finish() backs the results up. The steps are apart so that a pipelined
// worker can evaluate one batch while it collects the next.
template <typename G>
struct LeafBatch {
  std::vector<EvalRequest<G>> requests;
  std::vector<SearchSlot<G>*> owners;
  std::vector<EvalResult> results;

  template <typename Record>
  void collect(std::vector<std::unique_ptr<Record>>& games) {
    requests.clear();
    owners.clear();
    for (auto& g : games) {
      SearchSlot<G>& s = g->search;
      while (s.sims_done < s.sims_target && !s.root_settled()) {
        if (s.mcts.select_leaf()) {
          requests.push_back(s.mcts.leaf_request());
          owners.push_back(&s);
          break;
        }
        ++s.sims_done;
      }
    }
  }
  void evaluate(Evaluator<G>& evaluator) {
    results.resize(requests.size());
    if (!requests.empty()) evaluator.evaluate(requests, Span<EvalResult>(results.data(), requests.size()));
  }
  // Returns the number of leaves backed up. capacity: the games the batch
  // was drawn from, for the batch fill.
  size_t finish(SelfplayCounters& counters, int capacity) {
    for (size_t i = 0; i < requests.size(); ++i) {
      owners[i]->mcts.finish_leaf(results[i]);
      ++owners[i]->sims_done;
    }
    if (!requests.empty()) {
      counters.steps += 1;
      counters.leaves += int64_t(requests.size());
      counters.nn_positions += int64_t(requests.size());
      counters.capacity += capacity;
    }
    const size_t n = requests.size();
    requests.clear();
    owners.clear();
    return n;
  }
};

// One unpipelined step: collect, evaluate and finish one batch over all of
// the worker's games. Returns the number of leaves evaluated.
template <typename G, typename Record>
size_t batched_search_step(std::vector<std::unique_ptr<Record>>& games, Evaluator<G>& evaluator,
                           SelfplayCounters& counters) {
  thread_local LeafBatch<G> batch;
  batch.collect(games);
  batch.evaluate(evaluator);
  return batch.finish(counters, counters.job.config.games_in_flight);
}

// The root's value for the mover: its children's q weighted by visits;
// nothing when no child was visited.
template <typename Stats>
std::optional<double> root_value(const std::vector<Stats>& children) {
  double value = 0, visits = 0;
  for (const auto& c : children) {
    value += c.visits * c.q;
    visits += c.visits;
  }
  if (visits <= 0) return std::nullopt;
  return value / visits;
}

// Whether a full search becomes a sample. Searches that proved their root
// (won, lost or drawn: root_settled) are kept with probability
// proven_sample_fraction: once solved they teach little, and dropping most of
// them spends training on the open positions. The rng is drawn only when a
// proven root may be dropped.
template <typename G>
bool keep_search_sample(const SearchSlot<G>& search, const SelfplayConfig& config, Rng& rng) {
  if (config.proven_sample_fraction >= 1.0 || !search.root_settled()) return true;
  return rng.uniform_double() < config.proven_sample_fraction;
}

// A move drawn by visit count ^ (1 / temperature), the temperature decaying
// with the ply from temperature_start towards temperature_end; `best` when
// the temperature is near 0 or nothing was visited.
template <typename Action, typename Stats>
Action sample_by_visits(const std::vector<Stats>& children, int ply, const SelfplayConfig& config, Rng& rng,
                        Action best) {
  const double t = std::max(config.temperature_end,
                            config.temperature_start * std::pow(0.5, ply / config.temperature_halflife));
  if (t < 0.05) return best;
  double total = 0, top = 0;
  for (const auto& c : children) top = std::max(top, double(c.visits));
  if (top <= 0) return best;
  std::vector<double> w(children.size());
  for (size_t i = 0; i < children.size(); ++i) total += w[i] = std::pow(children[i].visits / top, 1.0 / t);
  double x = rng.uniform_double() * total;
  for (size_t i = 0; i < children.size(); ++i)
    if ((x -= w[i]) <= 0) return children[i].action;
  return children.back().action;
}

// A worker's finished games waiting to be written as one shard.
struct PendingShard {
  std::string game;  // the samples' schema (selfplay/sample.h)
  std::vector<Sample> samples;
  int64_t games = 0;
  int64_t first_game = INT64_MAX;  // the smallest id of the games held

  void add_game(int64_t id) {
    ++games;
    first_game = std::min(first_game, id);
  }

  // Writes them when `final` or once samples_per_shard are held, as
  // OUT/shard-<first game id>[-<job's shard tag>]-w<worker>.h5 (the first
  // id among the samples, or among the games when none has a sample).
  void flush(bool final, SelfplayCounters& counters, int worker) {
    const SelfplayJob& job = counters.job;
    if (samples.empty() && games == 0) return;
    if (!final && int(samples.size()) < job.config.samples_per_shard) return;
    int64_t first_id = INT64_MAX;
    for (const auto& s : samples) first_id = std::min(first_id, s.game_id);
    if (samples.empty()) first_id = first_game;  // games without full searches
    const ShardMeta meta{job.model_id, job.config_hash, job.config.seed, games, game};
    char id[32], w[16];
    std::snprintf(id, sizeof id, "%012lld", (long long)first_id);
    std::snprintf(w, sizeof w, "w%02d", worker);
    const std::string name =
        "shard-" + std::string(id) + (job.shard_tag.empty() ? "" : "-" + job.shard_tag) + "-" + w + ".h5";
    write_shard((std::filesystem::path(job.out_dir) / name).string(), meta, samples);
    samples.clear();
    games = 0;
    first_game = INT64_MAX;
  }
};

// The search settings a self-play config implies.
MctsConfig selfplay_mcts_config(const SelfplayConfig& config);

}  // namespace mushroom::selfplay
