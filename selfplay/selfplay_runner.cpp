#include "selfplay/selfplay_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "agents/greedy_agent.h"
#include "agents/local_match.h"
#include "alphabeta/alphabeta.h"
#include "mushroom/board_gen.h"
#include "mushroom/mushroom_evaluators.h"
#include "nn/cpu_net.h"
#include "nn/device_queue.h"
#include "nn/nn_evaluator.h"
#include "nn/simulated_device.h"
#include "protocol/game_log.h"
#include "search/mcts.h"
#include "selfplay/async_call.h"
#include "selfplay/selfplay_workers.h"
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

// A backend of the job's kind for its model.
std::shared_ptr<nn::NetBackend> make_backend(const SelfplayJob& job) {
  if (job.config.backend == "torch") {
#ifdef MUSHROOM_WITH_TORCH
    return nn::make_torch_backend(*job.model, job.config.device);
#else
    throw std::runtime_error("selfplay.backend = \"torch\" needs a build with LibTorch");
#endif
  }
  return std::make_shared<nn::CpuNet>(*job.model);
}

// shared: the backend every worker uses (the simulated device, or the
// device queue); null: each evaluator makes its own.
std::unique_ptr<Evaluator<MushroomGame>> make_evaluator(const SelfplayJob& job,
                                                        const std::shared_ptr<nn::NetBackend>& shared) {
  if (!job.model) {
    if (job.config.bootstrap == "uniform") return std::make_unique<UniformEvaluator>();
    return std::make_unique<MaterialEvaluator>();
  }
  return std::make_unique<nn::NnEvaluator>(shared ? shared : make_backend(job),
                                           nn::NnEvaluatorConfig{.symmetry = nn::SymmetryMode::kRandom});
}

struct Game {
  Position pos;
  SearchSlot<MushroomGame> search;
  AlphaBeta solver{AlphaBetaConfig{.tt_bits = 14}};
  Rng rng{1};
  int64_t id = -1;
  std::vector<Sample> samples;
  bool full = false;
  std::optional<GameLog> log;  // kept for the job's first sample_games games
  SteadyClock::time_point move_start;
  int64_t origin = 0;  // first_game_id of the job that started it (an earlier one when carried)
  explicit Game(const MctsConfig& c) : search(c) {}
};

using Games = std::vector<std::unique_ptr<Game>>;

}  // namespace

struct GameCarry {
  mutable std::mutex mutex;
  Games games;
};

std::shared_ptr<GameCarry> make_game_carry() { return std::make_shared<GameCarry>(); }

size_t carried_games(const GameCarry& carry) {
  std::lock_guard<std::mutex> lock(carry.mutex);
  return carry.games.size();
}

namespace {

// Near the end of a job, when no games are left to start, a worker whose
// games have thinned out hands them to another and stops, so the last
// batches stay full instead of every worker ending on its own tail of
// near-empty ones. A game's moves depend only on its own seed, so who
// finishes it changes nothing in it.
class TailPool {
 public:
  explicit TailPool(int workers) : active_(workers) {}

  // True when another worker stays to take this one's games; the caller
  // must then donate() them once none of its batches is in flight.
  bool try_leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_ - leaving_ <= 1) return false;
    ++leaving_;
    return true;
  }
  void donate(Games& games) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& g : games) pool_.push_back(std::move(g));
    games.clear();
    --leaving_;
    --active_;
    changed_.notify_all();
  }
  // Moves up to `room` handed-over games into `games`.
  void adopt(Games& games, size_t room) {
    std::lock_guard<std::mutex> lock(mutex_);
    take(games, room);
  }
  // For a worker with no games left: waits for the games a leaving worker
  // is about to hand over; false when none will come (the worker stops).
  bool adopt_or_retire(Games& games, size_t room) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !pool_.empty() || leaving_ == 0; });
    if (pool_.empty()) {
      --active_;
      changed_.notify_all();
      return false;
    }
    take(games, room);
    return true;
  }

 private:
  void take(Games& games, size_t room) {
    while (room > 0 && !pool_.empty()) {
      games.push_back(std::move(pool_.back()));
      pool_.pop_back();
      --room;
    }
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  Games pool_;
  int active_, leaving_ = 0;
};

class Worker {
 public:
  Worker(SelfplayCounters& shared, int index, std::shared_ptr<nn::NetBackend> backend, TailPool& tail)
      : shared_(shared), index_(index), config_(shared.job.config), backend_(std::move(backend)), tail_(tail) {}

  void run() {
    const int halves = config_.pipeline ? 2 : 1;
    for (int h = 0; h < halves; ++h) evaluators_[h] = make_evaluator(shared_.job, backend_);
    const MctsConfig mc = selfplay_mcts_config(config_);
    for (int g = 0; g < config_.games_in_flight; ++g) {
      if (std::unique_ptr<Game> carried = take_carried()) {
        halves_[size_t(g % halves)].push_back(std::move(carried));
        continue;
      }
      auto game = std::make_unique<Game>(mc);
      if (config_.solver) {
        Game* raw = game.get();
        game->search.mcts.set_solver([raw](const Position& state) -> std::optional<double> {
          MoveList list;
          if (generate_moves(state, list) > 3) return std::nullopt;
          const auto exact = raw->solver.solve_exact(state, 400);
          return exact ? std::optional<double>(*exact) : std::nullopt;
        });
      }
      if (start_game(*game)) halves_[size_t(g % halves)].push_back(std::move(game));
    }
    play(halves);
    flush(true);
  }

  // A game an earlier job left in flight, or null.
  std::unique_ptr<Game> take_carried() {
    if (!shared_.job.carry) return nullptr;
    GameCarry& carry = *shared_.job.carry;
    std::lock_guard<std::mutex> lock(carry.mutex);
    if (carry.games.empty()) return nullptr;
    std::unique_ptr<Game> game = std::move(carry.games.back());
    carry.games.pop_back();
    return game;
  }

  // Leaves this worker's unfinished games for the next job.
  void hand_on_games() {
    GameCarry& carry = *shared_.job.carry;
    std::lock_guard<std::mutex> lock(carry.mutex);
    for (Games& half : halves_) {
      for (auto& g : half) carry.games.push_back(std::move(g));
      half.clear();
    }
  }

 private:
  // The search loop. With one half, each batch is collected, evaluated and
  // backed up in turn. With two (pipeline), each half has its batch: while
  // one half's batch is on the device, this thread backs up, plays and
  // selects in the other. Each game sees the same sequence of searches
  // either way, and its randomness is its own (start_game), so a
  // deterministic evaluator gives the same games; only the order in which
  // games finish, and so which shard holds them, differs.
  void play(int halves) {
    bool leaving = false;
    try {
      play_until_done(halves, leaving);
    } catch (...) {
      if (leaving) {  // the others must not wait for games that will not come
        Games none;
        tail_.donate(none);
      }
      throw;
    }
  }

  void play_until_done(int halves, bool& leaving) {
    LeafBatch<MushroomGame> batches[2];
    std::unique_ptr<AsyncCall> calls[2];
    if (halves == 2) calls[0] = std::make_unique<AsyncCall>(), calls[1] = std::make_unique<AsyncCall>();
    bool in_flight[2] = {false, false};
    const size_t capacity = size_t((config_.games_in_flight + halves - 1) / halves);
    // The pipelined design also hands a thinned-out worker's games to another
    // at the end (TailPool); the old design keeps each worker's tail.
    const bool share_tail = halves == 2;
    while (true) {
      for (int h = 0; h < halves; ++h) {
        if (in_flight[h]) {
          if (calls[h]) calls[h]->wait();
          batches[h].finish(shared_, int(capacity));
          in_flight[h] = false;
          advance(halves_[h]);
        }
        if (leaving || shared_.finished()) continue;
        if (share_tail && drained() && halves_[h].size() < capacity)
          tail_.adopt(halves_[h], capacity - halves_[h].size());
        if (halves_[h].empty()) continue;
        batches[h].collect(halves_[h]);
        if (calls[h]) {
          calls[h]->start([this, &batches, h] { batches[h].evaluate(*evaluators_[h]); });
        } else {
          batches[h].evaluate(*evaluators_[h]);
        }
        in_flight[h] = true;
      }
      if (in_flight[0] || in_flight[1]) {
        if (share_tail && !leaving && drained() && live() <= size_t(config_.games_in_flight) / 2)
          leaving = tail_.try_leave();
        continue;
      }
      if (shared_.finished()) return hand_on_games();
      if (leaving) {
        for (int h = 1; h < halves; ++h) {
          for (auto& g : halves_[h]) halves_[0].push_back(std::move(g));
          halves_[h].clear();
        }
        tail_.donate(halves_[0]);  // once: it also counts this worker out
        return;
      }
      if (live() == 0 && (!share_tail || !tail_.adopt_or_retire(halves_[0], capacity))) return;
    }
  }

  // No game of the job is left to start (never with a carry: games start
  // until the job's games have finished).
  bool drained() const { return !shared_.job.carry && shared_.next_game.load() >= shared_.job.games; }
  size_t live() const { return halves_[0].size() + halves_[1].size(); }

  // Plays a move in every game whose search is done, and starts new games
  // in the places of finished ones while the job has games left.
  void advance(Games& games) {
    for (size_t i = 0; i < games.size();) {
      Game& g = *games[i];
      const bool searched = g.search.searched();
      if (searched && !g.search.mcts.root().expanded) {
        // The root itself was solved as a leaf (a tiny endgame): no tree to
        // read a move from, so the solver picks it.
        if (!play_move(g, solved_move(g)) && !start_game(g)) {
          games.erase(games.begin() + long(i));
          continue;
        }
      } else if (searched) {
        if (!play_move(g) && !start_game(g)) {
          games.erase(games.begin() + long(i));
          continue;
        }
      }
      ++i;
    }
  }

  // Takes the next game id; false when the job has none left.
  bool start_game(Game& g) {
    const std::optional<int> taken = shared_.take_game();
    if (!taken) return false;
    const int k = *taken;
    g.id = shared_.job.first_game_id + k;
    const uint64_t seed = board_seed(config_.seed, g.id);
    g.pos = random_board(seed);
    g.rng = Rng(seed ^ 0x5e1f);
    g.search.mcts.reseed(seed ^ 0x3c7a);
    if (config_.random_opening_plies > 0) {
      // Random opening moves, not recorded; the log starts after them.
      const int opening = int(g.rng.uniform(uint32_t(config_.random_opening_plies + 1)));
      for (int p = 0; p < opening && !g.pos.game_over(); ++p) {
        MoveList list;
        const int n = generate_moves(g.pos, list);
        g.pos.apply(n > 0 ? list[g.rng.uniform(uint32_t(n))] : Move::pass());
      }
      if (g.pos.game_over()) g.pos = random_board(seed);
    }
    g.samples.clear();
    g.log.reset();
    g.origin = shared_.job.first_game_id;
    if (k < config_.sample_games) {
      g.log.emplace();
      g.log->start = g.pos;
    }
    g.search.mcts.reset(g.pos);
    begin_move(g);
    return true;
  }

  void begin_move(Game& g) {
    g.full = g.rng.uniform_double() < config_.full_search_fraction;
    g.search.sims_target = g.full ? config_.full_sims : config_.cheap_sims;
    g.search.sims_done = 0;
    g.move_start = SteadyClock::now();
    g.search.mcts.begin_search(g.search.sims_target);
    if (g.full && config_.exploration == "dirichlet") g.search.mcts.add_root_noise(config_.dirichlet_alpha, config_.dirichlet_fraction);
  }

  Move solved_move(Game& g) {
    Move best = Move::pass();
    if (!g.solver.solve_exact(g.pos, 1'000'000, &best)) best = greedy_move(g.pos);
    return best;
  }

  // Plays the searched move (or `forced`, recorded as no sample); false when
  // the game ended (its samples are then finished and queued).
  bool play_move(Game& g, std::optional<Move> forced = std::nullopt) {
    const auto children = g.search.mcts.root_children();
    Move move = forced ? *forced : g.search.mcts.best_action();
    if (g.full && !forced && keep_search_sample(g.search, config_, g.rng)) {
      const std::vector<float> target = g.search.mcts.improved_policy();
      Sample s = sample_from_position(g.pos);
      s.game_id = g.id;
      for (size_t i = 0; i < children.size(); ++i)
        if (target[i] > 0) s.policy.emplace_back(children[i].action.index(), target[i]);
      s.search_value = float(root_value(children).value_or(0.0));
      if (!s.policy.empty()) g.samples.push_back(std::move(s));
    }
    if (g.full && !forced && config_.exploration == "dirichlet")
      move = sample_by_visits(children, g.pos.ply(), config_, g.rng, g.search.mcts.best_action());
    if (g.log) log_move(g, move, children);
    g.pos.apply(move);
    if (g.pos.game_over() || g.pos.ply() >= kMaxTurns) {
      finish_game(g);
      return false;
    }
    g.search.mcts.advance(move);
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

  void finish_game(Game& g) {
    if (g.log) write_log(g);
    // A carried game's id is from an earlier job's range: each shard holds
    // the games of one starting job, so that its first id names that job's
    // range (actor chunks rely on it).
    PendingShard& pending = pending_.try_emplace(g.origin, PendingShard{"mushroom", {}, 0}).first->second;
    const int first_margin = g.pos.score(kFirst) - g.pos.score(kSecond);
    for (Sample& s : g.samples) {
      const int sign = s.to_move == kFirst ? 1 : -1;
      const int margin = sign * first_margin;
      int8_t ownership[kCells];
      for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kCols; ++c) {
          const Owner o = g.pos.owner(r, c);
          const int owner_sign = o == Owner::kNone ? 0 : (o == Owner::kFirst ? 1 : -1);
          ownership[r * kCols + c] = int8_t(owner_sign * sign);
        }
      set_final_result(s, margin, ownership);
      s.outcome = int8_t((margin > 0) - (margin < 0));
      pending.samples.push_back(std::move(s));
    }
    shared_.samples += int64_t(g.samples.size());
    g.samples.clear();
    pending.add_game(g.id);
    shared_.plies += g.pos.ply();  // finished games only, so the mean is per game
    ++shared_.games_done;
    pending.flush(false, shared_, index_);
  }

  void flush(bool final) {
    for (auto& [origin, pending] : pending_) pending.flush(final, shared_, index_);
  }

  SelfplayCounters& shared_;
  int index_;
  const SelfplayConfig& config_;
  std::shared_ptr<nn::NetBackend> backend_;  // shared by every worker; null: each evaluator has its own
  TailPool& tail_;
  std::unique_ptr<Evaluator<MushroomGame>> evaluators_[2];  // one per half: each may be called from its own thread
  Games halves_[2];
  std::map<int64_t, PendingShard> pending_;  // finished games by the job that started them (Game::origin)
};

}  // namespace

SelfplayProgress run_selfplay(const SelfplayJob& job) {
  std::filesystem::create_directories(job.out_dir);
  SelfplayCounters counters(job);
  std::shared_ptr<nn::NetBackend> shared;  // every worker's backend, when they share one
  std::shared_ptr<nn::SimulatedDevice> simulated;
  if (job.model && job.config.backend == "simulated") {
    simulated = std::make_shared<nn::SimulatedDevice>(nn::LatencyModel::h100_6x32(), job.config.simulated_time_scale,
                                                      kCells);
    counters.device_busy = [simulated] { return simulated->stats().busy_fraction(); };
    shared = simulated;  // the old design: every worker on the default stream
  }
  if (job.model && job.config.device_batch > 0) {
    std::vector<std::shared_ptr<nn::NetBackend>> servers;
    for (int i = 0; i < job.config.device_threads; ++i)
      servers.push_back(simulated ? simulated->new_stream() : make_backend(job));
    auto queue = std::make_shared<nn::DeviceQueue>(std::move(servers), job.config.device_batch);
    counters.device_fill = [queue] { return queue->stats().fill(); };
    if (!simulated) counters.device_busy = [queue] { return queue->stats().busy_fraction(); };
    shared = queue;
  }
  TailPool tail(job.config.workers);
  return run_worker_threads(counters, [&](int w) { Worker(counters, w, shared, tail).run(); });
}

}  // namespace mushroom::selfplay
