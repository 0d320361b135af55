#include "agents/search_agents.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ratio>
#include <string>
#include <utility>
#include <vector>

#include "mushroom/mushroom_evaluators.h"
#include "nnue/evaluator.h"

namespace mushroom {

namespace {
using SteadyClock = std::chrono::steady_clock;
// A node cap per millisecond for root attempts, above the solver's measured
// ~1,000 nodes/ms; the deadline is what bounds the time.
constexpr double kSolverNodesPerMs = 2000;

double ms_since(SteadyClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
}
}  // namespace

bool solve_root(ExactSolver& solver, const Position& pos, int rectangles, const RootSolverConfig& config,
                double soft_ms, double bank_ms, Move& best, int& failed_at, int* margin) {
  const double bank_budget_ms = rectangles <= config.bank_max_rectangles ? bank_ms * config.bank_share : 0;
  const double budget_ms = std::max(soft_ms * config.share, bank_budget_ms);
  if (rectangles > config.max_rectangles || rectangles >= failed_at || budget_ms <= 0) return false;
  const auto deadline = SteadyClock::now() + std::chrono::microseconds(int64_t(budget_ms * 1000));
  const uint64_t node_limit = uint64_t(budget_ms * kSolverNodesPerMs);
  // With wdl, a value of 1 is a proven win, 0 a proven draw, and either way
  // `best` achieves it.
  const std::optional<ExactAnswer> answer = solver.solve(pos, config.wdl, node_limit, deadline);
  if (!answer) {
    failed_at = rectangles;
    return false;
  }
  if (margin) *margin = answer->value;
  // A loss proven by the window is left to the heuristic search, which plays
  // for the opponent's mistakes; it is retried next move.
  if (config.wdl && answer->value < 0) return false;
  best = answer->best;
  return true;
}

namespace {
// The root solver a config names: the dedicated one with its own 2^21 table
// (32 MiB), or alpha-beta's exact mode, on `shared`'s table when given, else
// on its own 2^20 one.
ExactSolver make_root_solver(const RootSolverConfig& config, AlphaBeta* shared) {
  if (parse_exact_solver_kind(config.exact) == ExactSolverKind::kEndgame)
    return ExactSolver(ExactSolverKind::kEndgame, 21);
  return shared ? ExactSolver(*shared) : ExactSolver(ExactSolverKind::kAlphaBeta, 20);
}
}  // namespace

MctsAgent::MctsAgent(MctsAgentConfig config)
    : config_(std::move(config)), mcts_(config_.mcts), root_solver_(make_root_solver(config_.root_solver, nullptr)),
      leaf_solver_(AlphaBetaConfig{.tt_bits = 16}) {
  config_.time.solved_tail_moves = config_.solver ? config_.tail : 0;
  if (config_.custom_evaluator) evaluator_ = config_.custom_evaluator;
  else if (config_.evaluator == "rollout") evaluator_ = std::make_unique<RolloutEvaluator>();
  else if (config_.evaluator == "material") evaluator_ = std::make_unique<MaterialEvaluator>();
  else evaluator_ = std::make_unique<RandomEvaluator>(config_.mcts.seed);
  if (config_.solver) {
    mcts_.set_solver([this](const Position& state) -> std::optional<double> {
      MoveList list;
      if (generate_moves(state, list) > config_.leaf_solver_moves) return std::nullopt;
      const auto exact = leaf_solver_.solve_exact(state, config_.leaf_solver_nodes);
      return exact ? std::optional<double>(*exact) : std::nullopt;
    });
  }
}

void MctsAgent::new_game(const Position& start, Player) {
  mcts_.reset(start);
  root_solver_failed_at_ = 1 << 30;
}

void MctsAgent::observe_move(const Position& before, const Move& m) {
  if (mcts_.root_state().hash() == before.hash()) {
    mcts_.advance(m);
  } else {
    Position after = before;
    after.apply(m);
    mcts_.reset(after);
  }
}

Move MctsAgent::choose_move(const Position& pos, const Clock& clock) {
  auto t0 = SteadyClock::now();
  MoveList list;
  if (generate_moves(pos, list) == 0) return Move::pass();  // the pass is all there is
  if (mcts_.root_state().hash() != pos.hash()) mcts_.reset(pos);
  const MoveBudget budget = plan_move_time(clock.my_ms, pos, list.size, config_.time);
  const double soft_ms = budget.soft_ms * config_.time_scale, hard_ms = budget.hard_ms * config_.time_scale;

  Move solved;
  if (config_.solver && solve_root(root_solver_, pos, list.size, config_.root_solver, soft_ms,
                                   usable_bank_ms(clock.my_ms, config_.time), solved, root_solver_failed_at_))
    return solved;
  if (config_.root_solver.bank_share > 0) t0 = SteadyClock::now();  // the search's budget starts after the attempt

  evaluator_->begin_search();
  if (config_.simulations > 0) {
    mcts_.begin_search(config_.simulations);
    last_simulations_ = mcts_.run(*evaluator_, config_.simulations);
    return mcts_.best_action();
  }
  const double left_ms = soft_ms - ms_since(t0);
  mcts_.begin_search(std::max(2, int(sims_per_ms_ * left_ms)));
  const auto search_start = SteadyClock::now();
  int count = 0;
  auto should_stop = [&] {
    if ((++count & 15) != 0) return false;
    const double elapsed = ms_since(t0);
    if (elapsed >= hard_ms) return true;
    if (elapsed >= soft_ms) return true;
    // Stop early when the remaining simulations cannot change the choice.
    const double rate = count / std::max(0.01, ms_since(search_start));
    return !config_.mcts.gumbel && double(mcts_.root_visit_lead()) > rate * (soft_ms - elapsed);
  };
  last_simulations_ = mcts_.run(*evaluator_, 1 << 30, should_stop);
  const double spent = ms_since(search_start);
  if (spent > 1 && last_simulations_ > 16) sims_per_ms_ = last_simulations_ / spent;
  return mcts_.best_action();
}

namespace {
// The evaluation file is read once: the network and the name a ProbCut fit
// is checked against both come from these bytes (empty: nothing to read).
std::string eval_file_bytes(const AlphaBetaAgentConfig& config) {
  return config.eval_model || config.eval.empty() ? std::string() : nnue::read_network_bytes(config.eval);
}

std::unique_ptr<StaticEvaluator> evaluator_from(const AlphaBetaAgentConfig& config, const std::string& eval_bytes) {
  if (config.eval_model) return std::make_unique<nnue::Evaluator>(*config.eval_model);
  if (config.eval.empty()) return nullptr;
  return std::make_unique<nnue::Evaluator>(nnue::parse_network(eval_bytes, config.eval));
}

std::shared_ptr<const ProbCutFit> probcut_from(const AlphaBetaAgentConfig& config, const std::string& eval_bytes) {
  if (config.probcut_fit) return config.probcut_fit;
  if (config.probcut.empty()) return nullptr;
  auto fit = std::make_shared<ProbCutFit>(read_probcut_fit(config.probcut));
  const std::string evaluation = eval_bytes.empty() ? probcut_evaluation_name(config.eval)
                                                    : probcut_evaluation_of_bytes(eval_bytes);
  check_probcut_evaluation(*fit, evaluation, config.probcut);
  return fit;
}
}  // namespace

AlphaBetaAgent::AlphaBetaAgent(AlphaBetaAgentConfig config) : AlphaBetaAgent(config, eval_file_bytes(config)) {}

AlphaBetaAgent::AlphaBetaAgent(AlphaBetaAgentConfig config, const std::string& eval_bytes)
    : config_(config),
      evaluator_(evaluator_from(config, eval_bytes)),
      probcut_(probcut_from(config, eval_bytes)),
      search_(config.search, evaluator_.get()),
      root_solver_(make_root_solver(config.root_solver, &search_)) {
  search_.set_move_orderer(config_.orderer.get());
  search_.set_probcut(probcut_.get());
  config_.time.solved_tail_moves = config_.solver ? config_.tail : 0;
}

namespace {
// The solver's budget for a played move's exact value after a proof: about
// what the root's proof may spend in one move's time.
constexpr uint64_t kMoveValueSolverNodes = 20'000'000;
}  // namespace

Move AlphaBetaAgent::choose_move(const Position& pos, const Clock& clock) {
  auto t0 = SteadyClock::now();
  report_.reset();
  report_key_ = pos.hash();
  MoveList list;
  if (generate_moves(pos, list) == 0) return Move::pass();
  double soft_ms = config_.move_ms, hard_ms = config_.move_ms, bank_ms = config_.move_ms;
  if (config_.move_ms <= 0) {
    const MoveBudget budget = plan_move_time(clock.my_ms, pos, list.size, config_.time);
    soft_ms = budget.soft_ms * config_.time_scale;
    hard_ms = budget.hard_ms * config_.time_scale;
    bank_ms = usable_bank_ms(clock.my_ms, config_.time);
  }
  Move solved;
  int margin = 0;
  if (config_.solver && solve_root(root_solver_, pos, list.size, config_.root_solver, soft_ms, bank_ms, solved,
                                   root_solver_failed_at_, &margin)) {
    // With wdl only a draw is an exact margin; a win is a lower bound.
    report_ = SearchReport{solved, double(margin), 0, 0, !config_.root_solver.wdl || margin == 0,
                           root_solver_.principal_variation(pos, 12)};
    return solved;
  }
  // The exact attempt ran on the bank: the move's own budget, hard
  // deadline included, starts after it.
  if (config_.root_solver.bank_share > 0) t0 = SteadyClock::now();
  AlphaBetaResult result;
  if (config_.depth > 0) {
    result = search_.search(pos, SteadyClock::now() + std::chrono::hours(1), config_.depth);
  } else {
    const auto deadline = t0 + std::chrono::microseconds(int64_t(hard_ms * 1000));
    // An iteration costs several times the previous one: start none past
    // 40% of the soft budget.
    const auto soft = t0 + std::chrono::microseconds(int64_t(soft_ms * 400));
    result = search_.search(pos, deadline, 64, 0, soft);
  }
  std::vector<Move> line = search_.principal_variation(pos, false);
  // An abandoned iteration may have stored another root move: the line
  // starts with the move played.
  if (line.empty() || !(line.front() == result.best)) line.assign(1, result.best);
  report_ = SearchReport{result.best, double(result.score) / kEvalScale, result.depth, result.nodes, false,
                         std::move(line)};
  return result.best;
}

std::optional<double> AlphaBetaAgent::move_value(const Position& pos, const Move& move) {
  if (!report_ || pos.hash() != report_key_) return std::nullopt;
  if (move == report_->best) return report_->cells;
  Position child = pos;
  child.apply(move);
  if (child.game_over()) return -double(child.margin_for_side_to_move());
  if (report_->proved) {
    // The position was proved: the played move gets an exact value too,
    // when the solver finds it within a budget like the root's.
    if (const std::optional<int> margin = search_.solve_exact(child, kMoveValueSolverNodes)) return -double(*margin);
  }
  // As deep as the root's last completed iteration searched each of its
  // moves; at least one ply, so the child is not just evaluated statically.
  const int depth = std::max(1, report_->depth - 1);
  const AlphaBetaResult result = search_.search(child, SteadyClock::now() + std::chrono::hours(1), depth);
  return -double(result.score) / kEvalScale;
}

}  // namespace mushroom
