// The search agents: `mcts` (no network; heuristic evaluator) and
// `alphabeta` (the classical baseline). Both plan their time from the bank
// (alphabeta/time_manager.h) and solve endgames exactly when they can prove the
// result within their budget.
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "agents/agent.h"
#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "alphabeta/time_manager.h"
#include "endgame/exact_solvers.h"
#include "mushroom/mushroom_game.h"
#include "nnue/network.h"
#include "search/mcts.h"
#include "util/settings.h"

namespace mushroom {

// When and how a search agent tries to solve the position at its root.
struct RootSolverConfig {
  int max_rectangles;       // try when this few rectangles remain
  double share = 0.25;      // of the move's soft budget
  // Or this share of the usable bank, when that is more: the bank left at
  // the end of a game is better spent proving the endgame. With it on, the
  // heuristic search's budget starts after a failed attempt.
  double bank_share = 0;
  int bank_max_rectangles = 12;  // ...only this close to the end: earlier, attempts mostly fail
  bool wdl = false;         // prove win/draw/loss only, not the margin
  // Which exact solver: "alphabeta" (alpha-beta's exact mode) or "endgame"
  // (the dedicated solver, engine/endgame/).
  std::string exact = "alphabeta";
};

struct MctsAgentConfig {
  MctsConfig mcts;
  // material | rollout | random. Material is the default: at equal time it
  // beat greedy rollouts in all 27 games measured (BENCHMARKS.md); its
  // values are better, not just cheaper.
  std::string evaluator = "material";
  // When set, used instead of `evaluator` (e.g. the network, from nn/).
  std::shared_ptr<Evaluator<MushroomGame>> custom_evaluator;
  std::string agent_name = "mcts";
  int simulations = 0;                // fixed per move; 0: plan from the clock
  bool solver = true;                 // exact endgames at the root and at leaves
  RootSolverConfig root_solver{14};
  int leaf_solver_moves = 3;          // and at leaves with this few...
  uint64_t leaf_solver_nodes = 400;   // ...for at most this many nodes (a failed try costs rollouts)
  double time_scale = 1.0;            // multiplies the planned budget
  double tail = 5;                    // own moves at the end the solver proves (time.solved_tail_moves when solver is on)
  TimeConfig time;
};

// The options every MCTS-based agent reads (mcts, nn, the exported bot),
// declared once with their ranges and help; the defaults are the
// initializers above: sims, gumbel, gumbel_k, cpuct, score_weight, solver,
// solver_moves, solver_share, solver_bank, solver_bank_moves, wdl, exact,
// time_scale, tail, middle_boost, middle_min, middle_max, end_mushrooms.
const SettingsTable<MctsAgentConfig>& mcts_search_settings();
// A config at the declared defaults with the given options read over them.
MctsAgentConfig read_mcts_search_options(OptionSource& opts, uint64_t seed);

class MctsAgent : public Agent {
 public:
  explicit MctsAgent(MctsAgentConfig config);
  std::string name() const override { return config_.agent_name; }
  void new_game(const Position& start, Player me) override;
  Move choose_move(const Position& pos, const Clock& clock) override;
  void observe_move(const Position& before, const Move& m) override;

  // Simulations run for the last move (for benchmarks and tests).
  int last_simulations() const { return last_simulations_; }

 private:
  MctsAgentConfig config_;
  Mcts<MushroomGame> mcts_;
  std::shared_ptr<Evaluator<MushroomGame>> evaluator_;
  ExactSolver root_solver_;
  AlphaBeta leaf_solver_;
  double sims_per_ms_ = 20;  // refined after every timed move
  int last_simulations_ = 0;
  int root_solver_failed_at_ = 1 << 30;  // rectangles when a root attempt last failed
};

struct AlphaBetaAgentConfig {
  AlphaBetaConfig search = playing_search_config();  // alphabeta/playing_search.h
  int depth = 0;            // fixed depth; 0: iterative deepening on the clock
  // Search this long per move, whatever the bank says (0: plan from the
  // bank). `mushroom analyze --ms` and the same bot setting agree.
  double move_ms = 0;
  bool solver = true;
  // The dedicated endgame solver at the root, and the middle game at more
  // time than the other moves: with the quiescence floor
  // (playing_search_config), the levers shipped by the margin rule in
  // issue 99 (bench/matches/levers-9902: capped margin +0.11 [+0.02, +0.21]
  // cells a game, +14.8 Elo). Then the near-misses together, shipped by
  // the same rule (bench/matches/combo-9915: capped margin +0.10 [+0.02,
  // +0.17], +9.4 Elo): the middle game wider and stronger (more than 94
  // and fewer than 135 mushrooms left at 2.5 times the time, from the
  // window 99..130 at 2.0; TimeConfig's ends are not in it), the root
  // solver's attempts on a tenth of the bank from 12 rectangles, and
  // ProbCut's 1.25 spreads (playing_search_config).
  RootSolverConfig root_solver{.max_rectangles = 16, .bank_share = 0.1, .exact = "endgame"};
  double time_scale = 1.0;
  double tail = 5;  // as MctsAgentConfig::tail
  TimeConfig time{.middle_boost = 2.5, .middle_min = 94, .middle_max = 135};
  std::string eval;  // a learned-evaluation file (nnue/network.h); "": the hand evaluation
  std::shared_ptr<const nnue::Network> eval_model;  // weights already read (the exported bot); before `eval`
  std::shared_ptr<MoveOrderer> orderer;  // ordering advice for the first search.orderer_plies plies (none: null)
  // A Multi-ProbCut fit file (alphabeta/probcut.h) made with `eval`; "": off.
  std::string probcut;
  std::shared_ptr<const ProbCutFit> probcut_fit;  // a fit already read (checked by whoever read it); before `probcut`
};

// The alphabeta agent's options: depth, solver, solver_moves, solver_share,
// solver_bank, solver_bank_moves, wdl, exact, lmr, lmr_divisor, pvs,
// killers, qdepth, qmoves, eval, probcut, probcut_sigmas,
// probcut_depth, and the time options
// (time_scale, tail, middle_boost, middle_min, middle_max, end_mushrooms).
const SettingsTable<AlphaBetaAgentConfig>& alphabeta_settings();
// The alphabeta options read from opts (for agents built on it elsewhere).
AlphaBetaAgentConfig read_alphabeta_options(OptionSource& opts);

class AlphaBetaAgent : public Agent {
 public:
  // Throws nnue::NetworkError naming the file when config.eval cannot be
  // used, ParseError or std::invalid_argument when config.probcut cannot
  // (unreadable, malformed, or fitted with another evaluation).
  explicit AlphaBetaAgent(AlphaBetaAgentConfig config);
  std::string name() const override { return "alphabeta"; }
  void new_game(const Position&, Player) override { root_solver_failed_at_ = 1 << 30; }
  Move choose_move(const Position& pos, const Clock& clock) override;
  // Also for the solver's moves (proved, their exact margin); nullopt after
  // a forced pass, which is not searched.
  std::optional<SearchReport> last_report() const override { return report_; }
  // The played move's child searched to the report's depth minus one (or,
  // after a proof, solved exactly within a node budget), on the same table.
  std::optional<double> move_value(const Position& pos, const Move& move) override;

 private:
  AlphaBetaAgent(AlphaBetaAgentConfig config, const std::string& eval_bytes);  // the file's bytes, read once
  AlphaBetaAgentConfig config_;
  uint64_t report_key_ = 0;  // the position report_ is about
  std::unique_ptr<StaticEvaluator> evaluator_;  // null: the hand evaluation, inline
  std::shared_ptr<const ProbCutFit> probcut_;   // null: off
  AlphaBeta search_;
  ExactSolver root_solver_;  // alpha-beta's exact mode shares search_'s table
  std::optional<SearchReport> report_;
  int root_solver_failed_at_ = 1 << 30;
};

// Tries to prove the position's exact margin (or, with wdl, that the side
// to move wins or draws) within config.share of soft_ms or, with at most
// config.bank_max_rectangles left, config.bank_share of bank_ms (the usable
// bank), whichever is more; on success stores the best move, and in margin
// (when given) the proven margin (with wdl, a lower bound unless 0). An
// attempt that failed with k rectangles left (failed_at) is not repeated
// until fewer remain: the game only gets smaller.
bool solve_root(ExactSolver& solver, const Position& pos, int rectangles, const RootSolverConfig& config,
                double soft_ms, double bank_ms, Move& best, int& failed_at, int* margin = nullptr);

}  // namespace mushroom
