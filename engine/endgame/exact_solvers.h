// Either exact solver behind one call, so that the commands that prove
// positions (solve-endgame, bench endgame) can run the dedicated solver
// (endgame/endgame_solver.h) or the plain exact mode of the heuristic
// alpha-beta (alphabeta/alphabeta.h) it is measured and checked against.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alphabeta/alphabeta.h"
#include "endgame/endgame_solver.h"

namespace mushroom {

enum class ExactSolverKind { kEndgame, kAlphaBeta };
// "endgame" or "alphabeta"; anything else throws std::invalid_argument
// naming both.
ExactSolverKind parse_exact_solver_kind(const std::string& name);
const char* exact_solver_name(ExactSolverKind kind);

struct ExactAnswer {
  int value = 0;             // the exact margin, or 1/0/-1 with wdl
  Move best = Move::pass();  // a move that achieves it
  uint64_t nodes = 0;
  int probes = 1;  // the dedicated solver's null-window searches
  std::optional<EndgameSearchStats> stats;  // the dedicated solver's
};

class ExactSolver {
 public:
  // endgame: the dedicated solver's settings (its tt_bits is replaced).
  ExactSolver(ExactSolverKind kind, int tt_bits, EndgameConfig endgame = {});
  // Alpha-beta's exact mode on a search the caller owns (and keeps alive),
  // sharing its table, as the alphabeta agent's root solver does.
  explicit ExactSolver(AlphaBeta& shared);
  // The proof within the limits (node_limit 0: none), or nothing.
  std::optional<ExactAnswer> solve(const Position& pos, bool wdl, uint64_t node_limit,
                                   std::optional<std::chrono::steady_clock::time_point> deadline);
  std::vector<Move> principal_variation(const Position& pos, int max_moves = 64);
  void clear();
  ExactSolverKind kind() const { return kind_; }

 private:
  ExactSolverKind kind_;
  std::unique_ptr<EndgameSolver> endgame_;
  std::unique_ptr<AlphaBeta> owned_alphabeta_;
  AlphaBeta* alphabeta_ = nullptr;  // owned_alphabeta_, or the caller's
};

}  // namespace mushroom
