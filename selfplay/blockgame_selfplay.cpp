#include "selfplay/blockgame_selfplay.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "blockgame/blockgame_game.h"
#include "selfplay/selfplay_workers.h"
#include "selfplay/shard.h"
#ifdef MUSHROOM_WITH_TORCH
#include "nn/blockgame_evaluator.h"
#endif

namespace mushroom::selfplay {

namespace {

using blockgame::BlockGame;
using Search = Mcts<BlockGame>;

std::unique_ptr<Evaluator<BlockGame>> make_evaluator(const SelfplayJob& job) {
  if (!job.model) return std::make_unique<blockgame::UniformBlockgameEvaluator>();
#ifdef MUSHROOM_WITH_TORCH
  return std::make_unique<nn::BlockgameEvaluator>(*job.model, job.config.device);
#else
  throw std::runtime_error("blockgame self-play with a model needs a build with LibTorch");
#endif
}

// The policy target: when the search proved some moves winning, those (the
// proof is exact); else the search's improved policy without proven losses.
std::vector<std::pair<int32_t, float>> policy_target(const Search& mcts) {
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
    if (target[i] > 0 && total > 0) out.emplace_back(BlockGame::action_index(children[i].action), float(target[i] / total));
  return out;
}

struct Record {
  blockgame::State state;
  SearchSlot<BlockGame> search;
  Rng rng{1};
  int64_t id = -1;
  bool full = false;
  std::vector<Sample> samples;
  explicit Record(const MctsConfig& c) : search(c) {}
};

class Worker {
 public:
  Worker(SelfplayCounters& counters, int index) : counters_(counters), index_(index), config_(counters.job.config) {}

  void run() {
    evaluator_ = make_evaluator(counters_.job);
    const MctsConfig mc = selfplay_mcts_config(config_);
    for (int g = 0; g < config_.games_in_flight; ++g) {
      auto record = std::make_unique<Record>(mc);
      if (start_game(*record)) games_.push_back(std::move(record));
    }
    while (!games_.empty()) {
      batched_search_step(games_, *evaluator_, counters_);
      for (size_t i = 0; i < games_.size();) {
        Record& g = *games_[i];
        if (g.search.searched() && !play_move(g) && !start_game(g)) {
          games_.erase(games_.begin() + long(i));
          continue;
        }
        ++i;
      }
    }
    flush(true);
  }

 private:
  bool start_game(Record& g) {
    const std::optional<int> k = counters_.take_game();
    if (!k) return false;
    g.id = counters_.job.first_game_id + *k;
    g.rng = Rng(board_seed(config_.seed, g.id));
    g.samples.clear();
    // Random opening plies; a draw that ends the game is drawn again shorter.
    for (int opening = int(g.rng.uniform(uint32_t(config_.random_opening_plies + 1)));; --opening) {
      g.state = blockgame::State{};
      uint8_t legal[blockgame::kPlacements];
      for (int p = 0; p < opening; ++p) {
        const int n = blockgame::legal_placements(g.state.filled, legal);
        if (n == 0) break;
        BlockGame::apply(g.state, legal[g.rng.uniform(uint32_t(n))]);
      }
      if (!BlockGame::is_terminal(g.state)) break;
    }
    g.search.mcts.reset(g.state);
    begin_move(g);
    return true;
  }

  void begin_move(Record& g) {
    g.full = g.rng.uniform_double() < config_.full_search_fraction;
    g.search.sims_target = g.full ? config_.full_sims : config_.cheap_sims;
    g.search.sims_done = 0;
    g.search.mcts.begin_search(g.search.sims_target);
    if (g.full && config_.exploration == "dirichlet")
      g.search.mcts.add_root_noise(config_.dirichlet_alpha, config_.dirichlet_fraction);
  }

  // Plays the searched move; false when the game ended.
  bool play_move(Record& g) {
    const auto children = g.search.mcts.root_children();
    uint8_t move = g.search.mcts.best_action();
    if (g.full && keep_search_sample(g.search, config_, g.rng)) {
      Sample s = blockgame_sample(g.state.filled);
      s.to_move = g.state.to_move;
      s.ply = g.state.ply;
      s.game_id = g.id;
      s.policy = policy_target(g.search.mcts);
      s.search_value = float(root_value(children).value_or(0.0));
      if (!s.policy.empty()) g.samples.push_back(std::move(s));
    }
    if (g.full && config_.exploration == "dirichlet")
      move = sample_by_visits(children, g.state.ply, config_, g.rng, move);
    BlockGame::apply(g.state, move);
    if (BlockGame::is_terminal(g.state)) {
      finish_game(g);
      return false;
    }
    g.search.mcts.advance(move);
    begin_move(g);
    return true;
  }

  // The side to move at the end has lost.
  void finish_game(Record& g) {
    for (Sample& s : g.samples) {
      s.outcome = s.to_move == g.state.to_move ? -1 : 1;
      pending_.samples.push_back(std::move(s));
    }
    counters_.samples += int64_t(g.samples.size());
    g.samples.clear();
    ++pending_.games;
    counters_.plies += g.state.ply;
    ++counters_.games_done;
    flush(false);
  }

  void flush(bool final) {
    pending_.flush(final, counters_, index_);
  }

  SelfplayCounters& counters_;
  int index_;
  const SelfplayConfig& config_;
  std::unique_ptr<Evaluator<BlockGame>> evaluator_;
  std::vector<std::unique_ptr<Record>> games_;
  PendingShard pending_{"blockgame", {}, 0};
};

}  // namespace

SelfplayProgress run_blockgame_selfplay(const SelfplayJob& job) {
  std::filesystem::create_directories(job.out_dir);
  SelfplayCounters counters(job);
  return run_worker_threads(counters, [&](int w) { Worker(counters, w).run(); });
}

}  // namespace mushroom::selfplay
