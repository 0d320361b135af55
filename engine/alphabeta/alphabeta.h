// Alpha-beta for the mushroom game: negamax with iterative deepening, a
// transposition table keyed by the Zobrist hash (side to move, pass state
// and game end are in it), principal-variation search, killer moves, late
// move reductions, quiescence, and move ordering with steals first
// (options: logarithmic reductions, late-move pruning). The pass is searched
// as an ordinary move. Switches that measured no better left this file;
// their records are in docs/history/ and git keeps their code.
//
// Two modes share the code:
//  - heuristic: depth-limited, leaves scored by the static evaluation: the
//    hand evaluation (evaluate()), or an injected StaticEvaluator
//    (mushroom/static_evaluator.h) told of every move made and taken back;
//  - exact (the endgame solver): searches to the end of the game on the
//    final score margin, so its value is the true margin under best play.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "alphabeta/move_orderer.h"
#include "alphabeta/move_picker.h"
#include "alphabeta/probcut.h"
#include "mushroom/movegen.h"
#include "mushroom/static_evaluator.h"

namespace mushroom {

struct AlphaBetaConfig {
  int tt_bits = 20;  // 2^20 entries of 16 bytes
  bool pvs = true;
  bool killers = true;
  bool lmr = true;
  // Late-move reduction size: 0 reduces every late quiet move by one ply;
  // above 0, by max(1, 0.5 + ln(depth) * ln(move number) / lmr_divisor)
  // plies, so the later a move comes in the ordering, and the deeper the
  // search, the less it is looked at. A reduced move that beats alpha is
  // searched again at full depth. 0 here; the playing agents use 2
  // (alphabeta/playing_search.h).
  double lmr_divisor = 0;
  // Heuristic mode only: at the depth limit, keep searching the mover's
  // biggest-gain moves (steals first) for this many more plies, taking the
  // static evaluation as a floor ("standing pat"), so a capture that is
  // answered by a bigger recapture is not scored as a clean gain. 0: the
  // static evaluation alone, as here; the playing agents use 2
  // (alphabeta/playing_search.h).
  int quiescence_depth = 0;
  int quiescence_moves = 3;  // moves searched per quiescence node
  // A quiescence node whose evaluation floor (StaticEvaluator::evaluate_floor)
  // already reaches beta stands pat on the floor without generating its
  // moves, as a plain leaf does.
  bool quiescence_floor = false;
  // With a MoveOrderer (set_move_orderer), nodes at plies below this are
  // ordered by its scores (the table's move still first).
  int orderer_plies = 1;
  // Multi-ProbCut (alphabeta/probcut.h), only with a fit given
  // (set_probcut): a null-window node with at least probcut_depth plies
  // left, where the fit has a pair, is cut when its shallow search predicts
  // a value probcut_sigmas spreads beyond the window. The contest bot gives
  // models/eval.probcut (docs/history/issue-72-forward-pruning.md: +54 Elo
  // at the 1 s screen; 1.0 spread measured level with 1.5).
  double probcut_sigmas = 1.5;
  int probcut_depth = 4;
};

struct AlphaBetaResult {
  Move best = Move::pass();
  int score = 0;           // heuristic units (16 per cell of margin) or exact margin
  int depth = 0;           // last completed iteration
  uint64_t nodes = 0;
  bool exact = false;      // the score is the proven final margin
};

// The hand evaluation of a position for the side to move, in 1/16 cells
// (hand_evaluation after finding the best immediate gain).
int evaluate(const Position& pos);

class AlphaBeta {
 public:
  using Clock = std::chrono::steady_clock;
  // evaluator: the heuristic mode's static evaluation, which must outlive
  // the search; null for the hand evaluation (run inline, no calls).
  explicit AlphaBeta(AlphaBetaConfig config = {}, StaticEvaluator* evaluator = nullptr);

  // Iterative deepening: no new iteration starts after soft_deadline, and
  // the running one is abandoned at deadline (its partial result unused).
  // max_depth and node_limit (0: none) bound it too.
  AlphaBetaResult search(const Position& root, Clock::time_point deadline, int max_depth = 64,
                         uint64_t node_limit = 0, std::optional<Clock::time_point> soft_deadline = std::nullopt);

  // The exact final margin for the side to move, if proven within
  // node_limit nodes (0: no limit) and before the deadline (if any); best
  // receives a move that achieves it.
  std::optional<int> solve_exact(const Position& root, uint64_t node_limit, Move* best = nullptr,
                                 std::optional<Clock::time_point> deadline = std::nullopt);
  // The same search on a window (alpha, beta) of final margins: the result
  // is exact inside it and a bound outside (fail-soft). (-1, 1) proves only
  // win, draw or loss, far faster than the exact margin.
  std::optional<int> solve_window(const Position& root, int alpha, int beta, uint64_t node_limit,
                                  Move* best = nullptr, std::optional<Clock::time_point> deadline = std::nullopt);

  // The line the table holds from root: its stored move at each position,
  // as long as that move is legal there, at most max_moves long. exact:
  // the solver's entries (after solve_exact or solve_window) rather than
  // the heuristic search's. Advisory: entries may have been overwritten.
  std::vector<Move> principal_variation(const Position& root, bool exact, int max_moves = 12);

  // Nodes the last search or proof visited.
  uint64_t nodes() const { return nodes_; }

  void clear();
  // Ordering advice for the first config.orderer_plies plies of the
  // heuristic mode; null to drop it. It must outlive the searches.
  void set_move_orderer(MoveOrderer* orderer) { orderer_ = orderer; }
  // Multi-ProbCut's fit for the heuristic mode; null (the default): off. It
  // must outlive the searches and be made with this search's evaluation.
  void set_probcut(const ProbCutFit* fit) { probcut_ = fit; }

 private:
  // The tests' view of one null-window node's Multi-ProbCut decision
  // (alphabeta/probcut_test.cpp), which no search result shows alone.
  friend struct ProbCutProbe;
  // What a transposition-table score says about the true value.
  enum class Bound : uint8_t { kNone, kExact, kLower, kUpper };
  struct Entry {
    uint64_t key = 0;
    int16_t score = 0;
    uint8_t depth = 0;
    Bound bound = Bound::kNone;  // kNone: an empty slot
    Move move;
  };

  // An interior node being searched: its window, which narrows as moves
  // come back, and the best move so far.
  struct Node {
    int depth, ply;
    int alpha, beta;
    int best;
    Move best_move;
  };
  enum class After : uint8_t { kGoOn, kCutoff, kStopped };

  // negamax, quiescence and horizon return 0 once stopped_ is set; callers
  // discard that value.
  int negamax(Position& pos, int depth, int alpha, int beta, int ply);
  // The heuristic mode's leaf (depth 0): quiescence, else the static
  // evaluation, cut off by its floor when that reaches beta.
  int horizon(Position& pos, int alpha, int beta);
  // Searches move m as the node's i-th (principal-variation search with
  // late-move reductions) and updates the node's window, best move and the
  // killers.
  After search_child(Position& pos, Node& node, int i, const Move& m, bool quiet);
  // Writes a searched node's result: its bound from where best fell
  // against the window it was searched with.
  void store(Entry* entry, uint64_t key, int best, uint8_t depth, int alpha_start, int beta, const Move& best_move);
  // The late-move reduction of move number i (from 0) at this depth.
  int reduction(int depth, int i) const;
  // A move made and taken back, told to the evaluator (heuristic mode).
  void play(Position& pos, const Move& move, Undo& undo);
  void take_back(Position& pos, const Undo& undo);
  // The static evaluation of a leaf whose rectangles have been scanned.
  int leaf_score(const Position& pos, const LeafMoves& moves) {
    return evaluator_ ? evaluator_->evaluate(pos, moves) : hand_evaluation(pos, moves.best_gain);
  }
  // A lower bound of leaf_score(pos, m) over every scan m, found without one.
  int leaf_floor(const Position& pos) {
    return evaluator_ ? evaluator_->evaluate_floor(pos) : hand_evaluation(pos, 0);
  }
  int quiescence(Position& pos, int alpha, int beta, int depth_left);
  // Multi-ProbCut at a null-window node: beta when the shallow search
  // predicts a fail high with the configured confidence, alpha when it
  // predicts a fail low, else kNoCut.
  static constexpr int kNoCut = 1 << 20;
  int probcut(Position& pos, const ProbCutPair& pair, int alpha, int beta, int ply);
  // A finished game's score for the side to move: its margin, in heuristic
  // units outside the exact mode.
  int finished_score(const Position& pos) const {
    return exact_ ? pos.margin_for_side_to_move() : kEvalScale * pos.margin_for_side_to_move();
  }
  // Counts a node; sets stopped_ when the node limit or deadline is passed.
  void count_node();
  // The key of each move of the list and of the pass after them (higher
  // first; tt_move, when given, above all) and its steals, for a
  // MovePicker; returns their number, list.size + 1.
  int key_moves(const Position& pos, const MoveList& list, std::optional<Move> tt_move, int ply,
                KeyedMove* keyed) const;
  static constexpr int kTableMoveKey = 1 << 30, kKillerKey = 1 << 20;  // above any capture's key
  // A move's key without the table's move or the orderer's advice.
  int plain_key(const Move& m, const RectangleTake& take, int ply) const;
  // What a killer move adds to its key at this ply (0 for any other move).
  int killer_bonus(const Move& m, int ply) const {
    return config_.killers && ply < 128 && (m == killers_[ply][0] || m == killers_[ply][1]) ? kKillerKey : 0;
  }
  // The moves the keys would put first, known without generating: the
  // table's move and the killers that are legal here, in the keys' order,
  // into first[0..3); returns their number (0 where the order could differ).
  int moves_before_generation(const Position& pos, std::optional<Move> tt_move, int ply, KeyedMove* first) const;
  // Prepares the per-search state (node count, limits, stop flag).
  void start(bool exact, uint64_t node_limit, std::optional<Clock::time_point> deadline);
  // The table's move for pos, if the table holds pos.
  std::optional<Move> table_move(const Position& pos, bool exact);
  Entry* probe(uint64_t key) { return &table_[key & mask_]; }
  uint64_t table_key(const Position& pos, bool exact) const;

  AlphaBetaConfig config_;
  StaticEvaluator* evaluator_;
  MoveOrderer* orderer_ = nullptr;
  const ProbCutFit* probcut_ = nullptr;
  std::vector<Entry> table_;
  uint64_t mask_;
  bool exact_ = false;
  bool stopped_ = false;  // the running search passed its node limit or deadline
  uint64_t nodes_ = 0, node_limit_ = 0;
  std::optional<Clock::time_point> deadline_;
  Move killers_[128][2];
  static constexpr int kReductionMoves = 64;  // later moves are reduced as the 64th
  int reductions_[65][kReductionMoves];       // reduction(depth, i), filled once
};

}  // namespace mushroom
