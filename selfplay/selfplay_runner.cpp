#include "selfplay/selfplay_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <thread>

#include "agents/greedy_agent.h"
#include "agents/local_match.h"
#include "mushroom/board_gen.h"
#include "nn/cpu_net.h"
#include "nn/nn_evaluator.h"
#include "protocol/game_log.h"
#include "search/alphabeta.h"
#include "search/mcts.h"
#include "search/mushroom_evaluators.h"
#include "selfplay/shard.h"
#include "util/rng.h"
#include "util/text.h"
#ifdef MUSHROOM_WITH_TORCH
#include "nn/torch_backend.h"
#endif

namespace mushroom::selfplay {

uint64_t board_seed(uint64_t run_seed, int64_t game_id) {
  uint64_t x = run_seed * 0x9E3779B97F4A7C15ull + uint64_t(game_id);
  return Rng::splitmix64(x);
}

namespace {

using SteadyClock = std::chrono::steady_clock;

// Uniform priors (the pass at a tenth) and a neutral value: a start from nothing.
class UniformEvaluator : public Evaluator<MushroomGame> {
 public:
  void evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) override {
    for (size_t i = 0; i < requests.size(); ++i) {
      heuristic_priors(requests[i].actions, requests[i].num_actions, results[i].priors);
      results[i].value = results[i].margin = 0;
    }
  }
};

std::unique_ptr<Evaluator<MushroomGame>> make_evaluator(const SelfplayJob& job) {
  if (!job.model) {
    if (job.config.bootstrap == "uniform") return std::make_unique<UniformEvaluator>();
    return std::make_unique<MaterialEvaluator>();
  }
  std::shared_ptr<nn::NetBackend> backend;
  if (job.config.backend == "torch") {
#ifdef MUSHROOM_WITH_TORCH
    backend = nn::make_torch_backend(*job.model, job.config.device);
#else
    throw std::runtime_error("selfplay.backend = \"torch\" needs a build with LibTorch");
#endif
  } else {
    backend = std::make_shared<nn::CpuNet>(*job.model);
  }
  return std::make_unique<nn::NnEvaluator>(backend, nn::NnEvaluatorConfig{.symmetry = nn::SymmetryMode::kRandom});
}

// The root's value for the mover: its children's q weighted by visits;
// nothing when no child was visited.
std::optional<double> root_value(const std::vector<Mcts<MushroomGame>::ChildStats>& children) {
  double value = 0, visits = 0;
  for (const auto& c : children) {
    value += c.visits * c.q;
    visits += c.visits;
  }
  if (visits <= 0) return std::nullopt;
  return value / visits;
}

// Everything one worker shares between its games.
struct Shared {
  explicit Shared(const SelfplayJob& j) : job(j) {}
  const SelfplayJob& job;
  std::atomic<int> next_game{0};
  std::atomic<int> games_done{0};
  std::atomic<int64_t> plies{0} /* of finished games */, samples{0}, nn_positions{0}, steps{0}, leaves{0};
};

struct Game {
  Position pos;
  Mcts<MushroomGame> mcts;
  AlphaBeta solver{AlphaBetaConfig{.tt_bits = 14}};
  Rng rng{1};
  int64_t id = -1;
  std::vector<TrainingSample> samples;
  bool full = false;
  int sims_target = 0, sims_done = 0;
  std::optional<GameLog> log;  // kept for the job's first sample_games games
  SteadyClock::time_point move_start;
  explicit Game(const MctsConfig& c) : mcts(c) {}
};

class Worker {
 public:
  Worker(Shared& shared, int index) : shared_(shared), index_(index), config_(shared.job.config) {}

  void run() {
    evaluator_ = make_evaluator(shared_.job);
    MctsConfig mc;
    mc.c_puct = config_.cpuct;
    mc.score_weight = config_.score_weight;
    mc.gumbel = config_.exploration == "gumbel";
    mc.gumbel_k = config_.gumbel_k;
    for (int g = 0; g < config_.games_in_flight; ++g) {
      auto game = std::make_unique<Game>(mc);
      if (config_.solver) {
        Game* raw = game.get();
        game->mcts.set_solver([raw](const Position& state) -> std::optional<double> {
          MoveList list;
          if (generate_moves(state, list) > 3) return std::nullopt;
          const auto exact = raw->solver.solve_exact(state, 400);
          return exact ? std::optional<double>(*exact) : std::nullopt;
        });
      }
      if (start_game(*game)) games_.push_back(std::move(game));
    }
    std::vector<EvalRequest<MushroomGame>> requests;
    std::vector<Game*> owners;
    std::vector<EvalResult> results;
    while (!games_.empty()) {
      requests.clear();
      owners.clear();
      for (auto& g : games_) {
        while (g->sims_done < g->sims_target && !root_settled(*g)) {
          if (g->mcts.select_leaf()) {
            requests.push_back(g->mcts.leaf_request());
            owners.push_back(g.get());
            break;
          }
          ++g->sims_done;
        }
      }
      if (!requests.empty()) {
        results.resize(requests.size());
        evaluator_->evaluate(requests, Span<EvalResult>(results.data(), requests.size()));
        for (size_t i = 0; i < requests.size(); ++i) {
          owners[i]->mcts.finish_leaf(results[i]);
          ++owners[i]->sims_done;
        }
        shared_.steps += 1;
        shared_.leaves += int64_t(requests.size());
        shared_.nn_positions += int64_t(requests.size());
      }
      for (size_t i = 0; i < games_.size();) {
        Game& g = *games_[i];
        const bool searched = g.sims_done >= g.sims_target || root_settled(g);
        if (searched && !g.mcts.root().expanded) {
          // The root itself was solved as a leaf (a tiny endgame): no tree to
          // read a move from, so the solver picks it.
          if (!play_move(g, solved_move(g)) && !start_game(g)) {
            games_.erase(games_.begin() + long(i));
            continue;
          }
        } else if (searched) {
          if (!play_move(g) && !start_game(g)) {
            games_.erase(games_.begin() + long(i));
            continue;
          }
        }
        ++i;
      }
    }
    flush(true);
  }

 private:
  bool root_settled(Game& g) { return g.mcts.root().expanded && g.mcts.root().solved != Mcts<MushroomGame>::kUnsolved; }

  // Takes the next game id; false when the job has none left.
  bool start_game(Game& g) {
    const int k = shared_.next_game.fetch_add(1);
    if (k >= shared_.job.games) return false;
    g.id = shared_.job.first_game_id + k;
    const uint64_t seed = board_seed(config_.seed, g.id);
    g.pos = random_board(seed);
    g.rng = Rng(seed ^ 0x5e1f);
    g.samples.clear();
    g.log.reset();
    if (k < config_.sample_games) {
      g.log.emplace();
      g.log->start = g.pos;
    }
    g.mcts.reset(g.pos);
    begin_move(g);
    return true;
  }

  void begin_move(Game& g) {
    g.full = g.rng.uniform_double() < config_.full_search_fraction;
    g.sims_target = g.full ? config_.full_sims : config_.cheap_sims;
    g.sims_done = 0;
    g.move_start = SteadyClock::now();
    g.mcts.begin_search(g.sims_target);
    if (g.full && config_.exploration == "dirichlet") g.mcts.add_root_noise(config_.dirichlet_alpha, config_.dirichlet_fraction);
  }

  Move solved_move(Game& g) {
    Move best = Move::pass();
    if (!g.solver.solve_exact(g.pos, 1'000'000, &best)) best = greedy_move(g.pos);
    return best;
  }

  // Plays the searched move (or `forced`, recorded as no sample); false when
  // the game ended (its samples are then finished and queued).
  bool play_move(Game& g, std::optional<Move> forced = std::nullopt) {
    const auto children = g.mcts.root_children();
    Move move = forced ? *forced : g.mcts.best_action();
    if (g.full && !forced) {
      const std::vector<float> target = g.mcts.improved_policy();
      TrainingSample s = sample_from_position(g.pos);
      s.game_id = g.id;
      for (size_t i = 0; i < children.size(); ++i)
        if (target[i] > 0) s.policy.emplace_back(children[i].action.index(), target[i]);
      s.search_value = float(root_value(children).value_or(0.0));
      if (!s.policy.empty()) g.samples.push_back(std::move(s));
      if (config_.exploration == "dirichlet") move = sample_by_visits(g, children);
    }
    if (g.log) log_move(g, move, children);
    g.pos.apply(move);
    if (g.pos.game_over() || g.pos.ply() >= kMaxTurns) {
      finish_game(g);
      return false;
    }
    g.mcts.advance(move);
    begin_move(g);
    return true;
  }

  // The move with what the search saw: its value and the most visited
  // candidates. The time is the move's wall time, shared with the worker's
  // other games.
  void log_move(Game& g, Move move, const std::vector<Mcts<MushroomGame>::ChildStats>& children) {
    const int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - g.move_start).count());
    LoggedMove logged{g.pos.to_move(), move, ms};
    if (const std::optional<double> value = root_value(children)) {
      SearchNote note;
      note.value = std::clamp(*value, -1.0, 1.0);
      std::vector<size_t> order(children.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return children[a].visits > children[b].visits; });
      for (size_t i = 0; i < order.size() && i < 5 && children[order[i]].visits > 0; ++i)
        note.candidates.push_back({children[order[i]].action, int(children[order[i]].visits),
                                   std::clamp(double(children[order[i]].q), -1.0, 1.0)});
      logged.search = note;
    }
    g.log->moves.push_back(logged);
  }

  void write_log(Game& g) {
    g.log->finished = true;
    g.log->score_first = g.pos.score(kFirst);
    g.log->score_second = g.pos.score(kSecond);
    const std::filesystem::path dir = std::filesystem::path(shared_.job.out_dir) / "games";
    std::filesystem::create_directories(dir);
    write_file_atomic((dir / ("game-" + std::to_string(g.id) + ".log")).string(), format_game_log(*g.log));
    g.log.reset();
  }

  Move sample_by_visits(Game& g, const std::vector<Mcts<MushroomGame>::ChildStats>& children) {
    const double t = std::max(config_.temperature_end, config_.temperature_start * std::pow(0.5, g.pos.ply() / config_.temperature_halflife));
    if (t < 0.05) return g.mcts.best_action();
    std::vector<double> w(children.size());
    double total = 0, top = 0;
    for (const auto& c : children) top = std::max(top, double(c.visits));
    if (top <= 0) return g.mcts.best_action();
    for (size_t i = 0; i < children.size(); ++i) total += w[i] = std::pow(children[i].visits / top, 1.0 / t);
    double x = g.rng.uniform_double() * total;
    for (size_t i = 0; i < children.size(); ++i)
      if ((x -= w[i]) <= 0) return children[i].action;
    return children.back().action;
  }

  void finish_game(Game& g) {
    if (g.log) write_log(g);
    const int first_margin = g.pos.score(kFirst) - g.pos.score(kSecond);
    for (TrainingSample& s : g.samples) {
      const int sign = s.to_move == kFirst ? 1 : -1;
      s.margin = int16_t(sign * first_margin);
      s.outcome = int8_t((s.margin > 0) - (s.margin < 0));
      for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kCols; ++c) {
          const Owner o = g.pos.owner(r, c);
          const int owner_sign = o == Owner::kNone ? 0 : (o == Owner::kFirst ? 1 : -1);
          s.ownership[r * kCols + c] = int8_t(owner_sign * sign);
        }
      pending_.push_back(std::move(s));
    }
    shared_.samples += int64_t(g.samples.size());
    g.samples.clear();
    ++pending_games_;
    shared_.plies += g.pos.ply();  // finished games only, so the mean is per game
    ++shared_.games_done;
    flush(false);
  }

  void flush(bool final) {
    if (pending_.empty() && pending_games_ == 0) return;
    if (!final && int(pending_.size()) < config_.samples_per_shard) return;
    int64_t first_id = INT64_MAX;
    for (const auto& s : pending_) first_id = std::min(first_id, s.game_id);
    if (pending_.empty()) first_id = shared_.job.first_game_id + index_;  // games without full searches
    ShardMeta meta{shared_.job.model_id, shared_.job.config_hash, config_.seed, pending_games_};
    char name[64];
    std::snprintf(name, sizeof name, "shard-%012lld-w%02d.h5", (long long)first_id, index_);
    write_shard((std::filesystem::path(shared_.job.out_dir) / name).string(), meta, pending_);
    pending_.clear();
    pending_games_ = 0;
  }

  Shared& shared_;
  int index_;
  const SelfplayConfig& config_;
  std::unique_ptr<Evaluator<MushroomGame>> evaluator_;
  std::vector<std::unique_ptr<Game>> games_;
  std::vector<TrainingSample> pending_;
  int64_t pending_games_ = 0;
};

}  // namespace

SelfplayProgress run_selfplay(const SelfplayJob& job) {
  std::filesystem::create_directories(job.out_dir);
  Shared shared(job);
  const auto start = SteadyClock::now();
  auto snapshot = [&] {
    SelfplayProgress p;
    p.games_done = shared.games_done;
    p.games_total = job.games;
    p.seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    p.mean_game_plies = p.games_done ? double(shared.plies) / p.games_done : 0;
    p.batch_fill = shared.steps ? double(shared.leaves) / double(shared.steps) / job.config.games_in_flight : 0;
    p.samples = shared.samples;
    p.nn_positions = shared.nn_positions;
    return p;
  };
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(job.config.workers);
  for (int w = 0; w < job.config.workers; ++w)
    threads.emplace_back([&, w] {
      try {
        Worker(shared, w).run();
      } catch (...) {
        errors[w] = std::current_exception();
        shared.next_game = job.games;  // stop the others from starting games
      }
    });
  std::atomic<bool> done{false};
  std::thread reporter([&] {
    auto last = SteadyClock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (job.progress && SteadyClock::now() - last > std::chrono::duration<double>(job.progress_seconds)) {
        last = SteadyClock::now();
        job.progress(snapshot());
      }
    }
  });
  for (auto& t : threads) t.join();
  done = true;
  reporter.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  const SelfplayProgress final_progress = snapshot();
  if (job.progress) job.progress(final_progress);
  return final_progress;
}

}  // namespace mushroom::selfplay
