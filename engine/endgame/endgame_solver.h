// The dedicated exact endgame solver for the mushroom game: it proves a
// position's final score margin under best play for both sides.
//
// Apart from the heuristic alpha-beta (alphabeta/alphabeta.h), whose exact
// mode is the plain reference this solver is checked against:
//  - null-window proofs: a margin is found by MTD(f)-style probes "is the
//    margin at least g?" around a guess, each a search on the window
//    (g-1, g), win/draw/loss by one search on (-1, 1);
//  - a table made for proofs: each entry keeps a lower and an upper bound on
//    the exact margin, so the probes share their work, in buckets of two
//    where the entry with the larger subtree survives;
//  - ordering made for proofs, where enough is left below to pay for it:
//    each child is made once, its table entry may end the node at once
//    (enhanced transposition cutoff), and the children are tried by what
//    the move gains less the opponent's best immediate reply, fewest
//    replies first among equals;
//  - the pass is searched only when it could matter: passing gives the
//    side to move at most the current margin (the opponent may pass too,
//    which ends the game), so it is skipped once alpha reaches that.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "alphabeta/alphabeta.h"
#include "alphabeta/probcut.h"
#include "mushroom/movegen.h"
#include "mushroom/position.h"

namespace mushroom {

struct EndgameConfig {
  int tt_bits = 22;  // 2^22 entries of 16 bytes: 64 MiB
  // Enhanced transposition cutoffs at ordered nodes.
  bool etc = true;
  // Nodes with at least this many mushrooms left are ordered by the
  // two-move estimate (each child made and its replies scanned); the rest,
  // cheaper, by what each move gains alone. Above 170: never.
  int ordering_min_left = 0;
};

struct EndgameProof {
  int margin = 0;  // the exact final margin for the side to move; -1/0/1 from solve_wdl
  Move best = Move::pass();  // a move that achieves it
  uint64_t nodes = 0;
  int probes = 0;  // null-window searches it took
};

// How well the search ordered, counted over the last solve or search: in a
// near-minimal tree almost every cutoff comes from the first move tried.
struct EndgameSearchStats {
  uint64_t cutoffs = 0;             // nodes a move lifted to beta
  uint64_t first_move_cutoffs = 0;  // ... the first move tried
  uint64_t every_move_nodes = 0;    // nodes that searched every rectangle, none reaching beta
  uint64_t table_cutoffs = 0;       // nodes ended by their own table entry
  uint64_t etc_cutoffs = 0;         // nodes ended by a child's entry (enhanced transposition cutoffs)
  uint64_t selective_cuts = 0;      // selective mode: nodes cut by the shallow search's prediction
  uint64_t shallow_nodes = 0;       // selective mode: the shallow searches' nodes (not in the solver's count)
};

// The solver's selective mode: Multi-ProbCut against exact values. At a
// null-window node with at least min_left mushrooms left, a shallow
// heuristic search predicts the exact margin (the fit's `exact` pair for
// the band); a prediction `sigmas` spreads beyond the window cuts the node.
// Its answers are then estimates, not proofs.
struct SelectiveEndgame {
  const ProbCutFit* fit = nullptr;  // with `exact` pairs; null: exact mode
  AlphaBeta* shallow = nullptr;     // the heuristic search, with the fit's evaluation
  double sigmas = 1.5;
  int min_left = 80;
};

class EndgameSolver {
 public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    uint64_t nodes = 0;  // 0: no limit
    std::optional<Clock::time_point> deadline;
  };

  explicit EndgameSolver(EndgameConfig config = {});

  // The exact margin, if proved within the limits. guess (a margin, for
  // example the heuristic search's estimate) only steers the probes.
  std::optional<EndgameProof> solve(const Position& root, const Limits& limits, int guess = 0);
  // Win, draw or loss only: margin is 1, 0 or -1.
  std::optional<EndgameProof> solve_wdl(const Position& root, const Limits& limits);
  // The fail-soft search on the window (alpha, beta) of final margins: exact
  // inside, a bound outside.
  std::optional<int> search_window(const Position& root, int alpha, int beta, const Limits& limits,
                                   Move* best = nullptr);

  // The line the table holds from root (advisory: entries may be replaced).
  std::vector<Move> principal_variation(const Position& root, int max_moves = 64);
  // Nodes the last solve (all its probes) or search visited.
  uint64_t nodes() const { return nodes_; }
  const EndgameSearchStats& stats() const { return stats_; }
  // Empties the table (the proofs of earlier positions are otherwise kept).
  void clear();
  // Switches the selective mode on (fit and shallow set) or off; the table
  // is emptied either way, so estimates and proofs never share it. Throws
  // std::invalid_argument when only one of fit and shallow is set, or a
  // setting is out of range.
  void set_selective(const SelectiveEndgame& selective);
  bool selective() const { return selective_.fit != nullptr; }

 private:
  struct Entry {
    uint64_t key_work = 0;  // the key's high 56 bits, and log2 of the subtree's nodes in the low 8
    int16_t lower = 0, upper = 0;
    Move move;
  };
  static_assert(sizeof(Entry) == 16);

  int search(Position& pos, int alpha, int beta, int ply);
  // The selective mode's cut at a null-window node: beta or alpha when the
  // shallow search predicts the margin beyond the window, else nothing.
  std::optional<int> selective_cut(const Position& pos, const ProbCutPair& pair, int alpha, int beta);
  // One search from root under the limits start() set (nodes count on).
  std::optional<int> probe(const Position& root, int alpha, int beta, Move* best);
  // The ordered moves of a node (the pass not among them); returns their
  // count, or (when cutoff is given) sets *cutoff to a proven value >= beta
  // found in a child's table entry and returns 0.
  int ordered_moves(Position& pos, const MoveList& list, Move* out, int beta, std::optional<Move> tt_move,
                    std::optional<int>* cutoff);
  Entry* find(uint64_t key);
  void store(uint64_t key, int lower, int upper, const Move& move, uint64_t subtree_nodes);
  void count_node();
  void start(const Limits& limits);

  EndgameConfig config_;
  std::vector<Entry> table_;
  uint64_t mask_ = 0;
  uint64_t nodes_ = 0, node_limit_ = 0;
  std::optional<Clock::time_point> deadline_;
  bool stopped_ = false;
  Move root_best_;
  EndgameSearchStats stats_;
  SelectiveEndgame selective_;
};

}  // namespace mushroom
