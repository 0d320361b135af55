// Self-play for any learnable game (search/game.h): the same job, workers,
// batched search step and shards as the mushroom game's self-play
// (selfplay_runner.h), with nothing about the game beyond its adapter. Games
// start from the adapter's empty state after k uniformly random actions (k
// drawn from 0..selfplay.random_opening_plies), so that the data covers
// positions strong play avoids; an opening that ends the game is drawn again
// one action shorter. Without a model the search runs on uniform priors and
// a neutral value (terminal positions still score).
//
// The policy target: when the search proved some moves winning, those (the
// proof is exact); else the search's improved policy without proven losses.
// The outcome is the end state's terminal value, seen from each sample's
// side to move.
#pragma once
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/model.h"
#include "selfplay/selfplay_runner.h"
#include "selfplay/selfplay_workers.h"
#include "selfplay/shard.h"
#ifdef MUSHROOM_WITH_TORCH
#include "nn/game_net_evaluator.h"
#endif

namespace mushroom::selfplay {

namespace game_selfplay_detail {

template <typename G>
std::unique_ptr<Evaluator<G>> make_evaluator(const SelfplayJob& job, nn::GameKind game) {
  if (!job.model) return std::make_unique<UniformEvaluator<G>>();
#ifdef MUSHROOM_WITH_TORCH
  return nn::make_game_net_evaluator<G>(*job.model, game, job.config.device);
#else
  (void)game;
  throw std::runtime_error("self-play with a model needs a build with LibTorch");
#endif
}

template <typename G>
std::vector<std::pair<int32_t, float>> policy_target(const Mcts<G>& mcts) {
  using Search = Mcts<G>;
  const auto children = mcts.root_children();
  std::vector<float> target = mcts.improved_policy();
  bool any_win = false, any_open = false;
  for (const auto& c : children) {
    any_win |= c.solved == Search::kWin;
    any_open |= c.solved != Search::kLoss;
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (any_win) target[i] = children[i].solved == Search::kWin ? 1.0f : 0.0f;
    else if (any_open && children[i].solved == Search::kLoss) target[i] = 0;
  }
  double total = 0;
  for (float t : target) total += t;
  std::vector<std::pair<int32_t, float>> out;
  for (size_t i = 0; i < children.size(); ++i)
    if (target[i] > 0 && total > 0) out.emplace_back(G::action_index(children[i].action), float(target[i] / total));
  return out;
}

template <typename G>
struct Record {
  typename G::State state;
  SearchSlot<G> search;
  Rng rng{1};
  int64_t id = -1;
  bool full = false;
  std::vector<Sample> samples;
  explicit Record(const MctsConfig& c) : search(c) {}
};

template <typename G>
class Worker {
 public:
  Worker(SelfplayCounters& counters, int index, nn::GameKind game, const SampleSchema& schema)
      : counters_(counters), index_(index), config_(counters.job.config), game_(game), schema_(schema),
        pending_{schema.game, {}, 0} {}

  void run() {
    evaluator_ = make_evaluator<G>(counters_.job, game_);
    const MctsConfig mc = selfplay_mcts_config(config_);
    for (int g = 0; g < config_.games_in_flight; ++g) {
      auto record = std::make_unique<Record<G>>(mc);
      if (start_game(*record)) games_.push_back(std::move(record));
    }
    while (!games_.empty()) {
      batched_search_step(games_, *evaluator_, counters_);
      for (size_t i = 0; i < games_.size();) {
        Record<G>& g = *games_[i];
        if (g.search.searched() && !play_move(g) && !start_game(g)) {
          games_.erase(games_.begin() + long(i));
          continue;
        }
        ++i;
      }
    }
    pending_.flush(true, counters_, index_);
  }

 private:
  bool start_game(Record<G>& g) {
    const std::optional<int> k = counters_.take_game();
    if (!k) return false;
    g.id = counters_.job.first_game_id + *k;
    g.rng = Rng(board_seed(config_.seed, g.id));
    g.samples.clear();
    typename G::Action legal[G::kMaxActions];
    for (int opening = int(g.rng.uniform(uint32_t(config_.random_opening_plies + 1)));; --opening) {
      g.state = typename G::State{};
      for (int p = 0; p < opening; ++p) {
        const int n = G::legal_actions(g.state, legal);
        if (n == 0) break;
        G::apply(g.state, legal[g.rng.uniform(uint32_t(n))]);
      }
      if (!G::is_terminal(g.state)) break;
    }
    g.search.mcts.reset(g.state);
    begin_move(g);
    return true;
  }

  void begin_move(Record<G>& g) {
    g.full = g.rng.uniform_double() < config_.full_search_fraction;
    g.search.sims_target = g.full ? config_.full_sims : config_.cheap_sims;
    g.search.sims_done = 0;
    g.search.mcts.begin_search(g.search.sims_target);
    if (g.full && config_.exploration == "dirichlet")
      g.search.mcts.add_root_noise(config_.dirichlet_alpha, config_.dirichlet_fraction);
  }

  // Plays the searched move; false when the game ended.
  bool play_move(Record<G>& g) {
    const auto children = g.search.mcts.root_children();
    typename G::Action move = g.search.mcts.best_action();
    if (g.full && keep_search_sample(g.search, config_, g.rng)) {
      Sample s = sample_of_state<G>(schema_, g.state);
      s.game_id = g.id;
      s.policy = policy_target(g.search.mcts);
      s.search_value = float(root_value(children).value_or(0.0));
      if (!s.policy.empty()) g.samples.push_back(std::move(s));
    }
    if (g.full && config_.exploration == "dirichlet")
      move = sample_by_visits(children, G::ply(g.state), config_, g.rng, move);
    G::apply(g.state, move);
    if (G::is_terminal(g.state)) {
      finish_game(g);
      return false;
    }
    g.search.mcts.advance(move);
    begin_move(g);
    return true;
  }

  void finish_game(Record<G>& g) {
    const int end_value = int(G::terminal_value(g.state));  // for the side to move at the end
    for (Sample& s : g.samples) {
      s.outcome = int8_t(int(s.to_move) == G::to_move(g.state) ? end_value : -end_value);
      pending_.samples.push_back(std::move(s));
    }
    counters_.samples += int64_t(g.samples.size());
    g.samples.clear();
    pending_.add_game(g.id);
    counters_.plies += G::ply(g.state);
    ++counters_.games_done;
    pending_.flush(false, counters_, index_);
  }

  SelfplayCounters& counters_;
  int index_;
  const SelfplayConfig& config_;
  nn::GameKind game_;
  const SampleSchema& schema_;
  std::unique_ptr<Evaluator<G>> evaluator_;
  std::vector<std::unique_ptr<Record<G>>> games_;
  PendingShard pending_;
};

}  // namespace game_selfplay_detail

// Plays job.games games of G, writing shards of `schema` (the game's
// learnable_schema) into job.out_dir.
template <typename G>
SelfplayProgress run_game_selfplay(const SelfplayJob& job, nn::GameKind game, const SampleSchema& schema) {
  if (job.carry || job.config.carry_games)
    throw std::invalid_argument("selfplay.carry_games is for the mushroom game's self-play only");
  if (job.config.pipeline || job.config.backend == "simulated")
    throw std::invalid_argument("selfplay.pipeline and selfplay.backend = \"simulated\" are the mushroom game's "
                                "self-play only; the " + schema.game + " game's self-play has neither");
  std::filesystem::create_directories(job.out_dir);
  SelfplayCounters counters(job);
  return run_worker_threads(counters,
                            [&](int w) { game_selfplay_detail::Worker<G>(counters, w, game, schema).run(); });
}

}  // namespace mushroom::selfplay
