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
#include "mushroom/alphabeta.h"
#include "search/mcts.h"
#include "mushroom/mushroom_evaluators.h"
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
  explicit Game(const MctsConfig& c) : search(c) {}
};

class Worker {
 public:
  Worker(SelfplayCounters& shared, int index) : shared_(shared), index_(index), config_(shared.job.config) {}

  void run() {
    evaluator_ = make_evaluator(shared_.job);
    const MctsConfig mc = selfplay_mcts_config(config_);
    for (int g = 0; g < config_.games_in_flight; ++g) {
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
      if (start_game(*game)) games_.push_back(std::move(game));
    }
    while (!games_.empty()) {
      batched_search_step(games_, *evaluator_, shared_);
      for (size_t i = 0; i < games_.size();) {
        Game& g = *games_[i];
        const bool searched = g.search.searched();
        if (searched && !g.search.mcts.root().expanded) {
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
  // Takes the next game id; false when the job has none left.
  bool start_game(Game& g) {
    const std::optional<int> taken = shared_.take_game();
    if (!taken) return false;
    const int k = *taken;
    g.id = shared_.job.first_game_id + k;
    const uint64_t seed = board_seed(config_.seed, g.id);
    g.pos = random_board(seed);
    g.rng = Rng(seed ^ 0x5e1f);
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
      pending_.samples.push_back(std::move(s));
    }
    shared_.samples += int64_t(g.samples.size());
    g.samples.clear();
    ++pending_.games;
    shared_.plies += g.pos.ply();  // finished games only, so the mean is per game
    ++shared_.games_done;
    flush(false);
  }

  void flush(bool final) {
    pending_.flush(final, shared_, index_);
  }

  SelfplayCounters& shared_;
  int index_;
  const SelfplayConfig& config_;
  std::unique_ptr<Evaluator<MushroomGame>> evaluator_;
  std::vector<std::unique_ptr<Game>> games_;
  PendingShard pending_{"mushroom", {}, 0};
};

}  // namespace

SelfplayProgress run_selfplay(const SelfplayJob& job) {
  std::filesystem::create_directories(job.out_dir);
  SelfplayCounters counters(job);
  return run_worker_threads(counters, [&](int w) { Worker(counters, w).run(); });
}

}  // namespace mushroom::selfplay
