#include "endgame/exact_solvers.h"

#include <stdexcept>

namespace mushroom {

ExactSolverKind parse_exact_solver_kind(const std::string& name) {
  if (name == "endgame") return ExactSolverKind::kEndgame;
  if (name == "alphabeta") return ExactSolverKind::kAlphaBeta;
  throw std::invalid_argument("unknown solver '" + name +
                              "': 'endgame' (the dedicated solver) or 'alphabeta' (alpha-beta's exact mode)");
}

const char* exact_solver_name(ExactSolverKind kind) {
  return kind == ExactSolverKind::kEndgame ? "endgame" : "alphabeta";
}

ExactSolver::ExactSolver(ExactSolverKind kind, int tt_bits, EndgameConfig endgame) : kind_(kind) {
  endgame.tt_bits = tt_bits;
  if (kind == ExactSolverKind::kEndgame) {
    endgame_ = std::make_unique<EndgameSolver>(endgame);
  } else {
    AlphaBetaConfig config;
    config.tt_bits = tt_bits;
    owned_alphabeta_ = std::make_unique<AlphaBeta>(config);
    alphabeta_ = owned_alphabeta_.get();
  }
}

ExactSolver::ExactSolver(AlphaBeta& shared) : kind_(ExactSolverKind::kAlphaBeta), alphabeta_(&shared) {}

std::optional<ExactAnswer> ExactSolver::solve(const Position& pos, bool wdl, uint64_t node_limit,
                                              std::optional<std::chrono::steady_clock::time_point> deadline) {
  ExactAnswer answer;
  if (endgame_) {
    EndgameSolver::Limits limits;
    limits.nodes = node_limit;
    limits.deadline = deadline;
    const std::optional<EndgameProof> proof = wdl ? endgame_->solve_wdl(pos, limits) : endgame_->solve(pos, limits);
    if (!proof) return std::nullopt;
    return ExactAnswer{proof->margin, proof->best, proof->nodes, proof->probes, endgame_->stats()};
  }
  const std::optional<int> value = wdl ? alphabeta_->solve_window(pos, -1, 1, node_limit, &answer.best, deadline)
                                       : alphabeta_->solve_exact(pos, node_limit, &answer.best, deadline);
  if (!value) return std::nullopt;
  answer.value = wdl ? (*value > 0) - (*value < 0) : *value;
  answer.nodes = alphabeta_->nodes();
  return answer;
}

std::vector<Move> ExactSolver::principal_variation(const Position& pos, int max_moves) {
  return endgame_ ? endgame_->principal_variation(pos, max_moves) : alphabeta_->principal_variation(pos, true, max_moves);
}

void ExactSolver::clear() {
  if (endgame_) endgame_->clear();
  else alphabeta_->clear();
}

}  // namespace mushroom
