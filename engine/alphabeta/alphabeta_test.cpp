#include "alphabeta/alphabeta.h"

#include <gtest/gtest.h>

#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "util/rng.h"

namespace mushroom {
namespace {

// Random small endgames: playout positions with mushrooms cleared at random
// until at most max_moves rectangles and 30 mushrooms remain.
std::vector<Position> small_endgames(int count, uint64_t seed, int max_moves) {
  std::vector<Position> out;
  Rng rng(seed);
  for (Position p : playout_positions(count * 3, seed)) {
    MoveList list;
    while (generate_moves(p, list) > max_moves || p.mushrooms_left() > 30) {
      const int cell = int(rng.uniform(kCells));
      p.set_digit(cell / kCols, cell % kCols, 0);
    }
    out.push_back(p);
    if (int(out.size()) == count) break;
  }
  return out;
}

// Plain minimax: no table, no pruning, no ordering; finished(pos) scores a
// finished game for its side to move. Throws past cap nodes.
template <class Finished>
int minimax_with(Position& pos, const Finished& finished, uint64_t& nodes, uint64_t cap) {
  if (++nodes > cap) throw std::runtime_error("too big");
  if (pos.game_over()) return finished(pos);
  MoveList list;
  generate_moves(pos, list);
  int best = -1 << 20;
  Undo undo;
  auto visit = [&](const Move& m) {
    pos.apply(m, &undo);
    best = std::max(best, -minimax_with(pos, finished, nodes, cap));
    pos.undo(undo);
  };
  for (const Move& m : list) visit(m);
  visit(Move::pass());
  return best;
}

// Plain minimax on the final margin.
int plain_minimax(Position& pos, uint64_t& nodes, uint64_t cap) {
  return minimax_with(pos, [](const Position& p) { return p.margin_for_side_to_move(); }, nodes, cap);
}

struct SolvedEndgame {
  Position position;
  int margin;  // plain minimax, for the side to move
};

// Up to `count` of small_endgames(...) small enough for plain minimax.
std::vector<SolvedEndgame> solved_endgames(int count, uint64_t seed, int max_moves) {
  std::vector<SolvedEndgame> out;
  for (const Position& start : small_endgames(count * 4, seed, max_moves)) {
    Position p = start;
    uint64_t nodes = 0;
    try {
      out.push_back({start, plain_minimax(p, nodes, 2000000)});
    } catch (const std::runtime_error&) {
      continue;
    }
    if (int(out.size()) == count) break;
  }
  return out;
}

// The final margin after `move`, for the side that played it.
int margin_after(const Position& pos, const Move& move) {
  Position after = pos;
  after.apply(move);
  uint64_t nodes = 0;
  return -plain_minimax(after, nodes, 1u << 30);
}

TEST(AlphaBeta, ExactSolverMatchesPlainMinimaxOnRandomEndgames) {
  AlphaBeta solver;
  const auto endgames = solved_endgames(60, 31, 4);
  EXPECT_GE(endgames.size(), 30u);
  for (const auto& [start, expected] : endgames) {
    Move best;
    const auto exact = solver.solve_exact(start, 0, &best);
    ASSERT_TRUE(exact.has_value());
    EXPECT_EQ(*exact, expected);
    EXPECT_EQ(margin_after(start, best), expected);  // the move it names achieves that margin
  }
}

TEST(AlphaBeta, WindowSolverProvesWinDrawOrLossAndAMoveThatKeepsIt) {
  int wins = 0, draws = 0, losses = 0;
  AlphaBeta solver;
  const auto endgames = solved_endgames(80, 37, 5);
  EXPECT_GE(endgames.size(), 40u);
  for (const auto& [start, expected] : endgames) {
    Move best;
    const auto outcome = solver.solve_window(start, -1, 1, 0, &best);
    ASSERT_TRUE(outcome.has_value());
    // Fail-soft: exact inside the window, a bound on the right side outside it.
    if (expected >= 1) {
      EXPECT_GE(*outcome, 1);
      ++wins;
    } else if (expected == 0) {
      EXPECT_EQ(*outcome, 0);
      ++draws;
    } else {
      EXPECT_LE(*outcome, -1);
      ++losses;
    }
    if (expected >= 0) {
      const int kept = margin_after(start, best);
      EXPECT_EQ(kept > 0, expected > 0);
      EXPECT_GE(kept, 0);
    }
  }
  // The sample covers all three outcomes, so each branch above was checked.
  EXPECT_GT(wins, 0);
  EXPECT_GT(draws, 0);
  EXPECT_GT(losses, 0);
}

// A line is legal move after move from its position.
void expect_legal_line(Position pos, const std::vector<Move>& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    const char* why = nullptr;
    ASSERT_TRUE(pos.is_legal(line[i], &why)) << "move " << i << " of the line: " << why;
    pos.apply(line[i]);
  }
}

TEST(AlphaBeta, PrincipalVariationStartsWithTheBestMoveAndIsLegal) {
  AlphaBeta search;
  int long_lines = 0;
  for (const Position& start : playout_positions(40, 43)) {
    if (start.game_over()) continue;
    const AlphaBetaResult result = search.search(start, AlphaBeta::Clock::now() + std::chrono::hours(1), 5);
    const std::vector<Move> line = search.principal_variation(start, false);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.front(), result.best);
    EXPECT_LE(line.size(), 12u);
    expect_legal_line(start, line);
    long_lines += line.size() >= 3;
  }
  EXPECT_GT(long_lines, 20);  // the table holds more than the root's move
}

TEST(AlphaBeta, SolverLineStartsWithAMoveThatKeepsTheMargin) {
  AlphaBeta solver;
  for (const auto& [start, expected] : solved_endgames(30, 47, 4)) {
    Move best;
    ASSERT_TRUE(solver.solve_exact(start, 0, &best).has_value());
    const std::vector<Move> line = solver.principal_variation(start, true);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.front(), best);
    EXPECT_EQ(margin_after(start, line.front()), expected);
    expect_legal_line(start, line);
  }
}

TEST(AlphaBeta, ExactSolverGivesUpPastItsNodeLimit) {
  const auto positions = playout_positions(50, 2);
  AlphaBeta solver;
  EXPECT_FALSE(solver.solve_exact(positions[0], 2000).has_value());  // an opening: far too big
}

// The deadline is checked every 1,024 nodes: one already past stops the
// proof at the first check, whatever the machine's load (no wall-clock
// bound asserted), the heuristic search after its first iteration at the
// latest, and a node limit far above it (the test's backstop, were the
// deadline ignored) is never what stops them. A deadline not reached stops
// nothing.
TEST(AlphaBeta, SearchesStopAtTheFirstCheckPastTheirDeadline) {
  const auto positions = playout_positions(50, 2);
  const auto past = AlphaBeta::Clock::now() - std::chrono::milliseconds(1);
  AlphaBeta solver;
  EXPECT_FALSE(solver.solve_exact(positions[0], 1'000'000, nullptr, past).has_value());  // an opening
  EXPECT_EQ(solver.nodes(), 1025u);  // the proof's first node, then its search's 1,024
  const AlphaBetaResult r = solver.search(positions[0], past, 64, 1'000'000);
  EXPECT_LE(r.nodes, 1024u);
  EXPECT_LE(r.depth, 1) << "no iteration starts past the deadline";
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  EXPECT_FALSE(solver.solve_exact(positions[0], 5000, nullptr, far).has_value());
  EXPECT_GT(solver.nodes(), 5000u) << "the node limit stopped it, not a deadline an hour away";
}

TEST(AlphaBeta, DepthOneSearchTakesTheBestStaticReply) {
  for (const Position& start : playout_positions(300, 41)) {
    if (start.game_over()) continue;
    MoveList list;
    generate_moves(start, list);
    int best = -100000;
    Undo undo;
    Position p = start;
    auto try_move = [&](const Move& m) {
      p.apply(m, &undo);
      const int s = p.game_over() ? 16 * p.margin_for_side_to_move() : evaluate(p);
      best = std::max(best, -s);
      p.undo(undo);
    };
    for (const Move& m : list) try_move(m);
    try_move(Move::pass());
    AlphaBeta search;
    const auto r = search.search(start, AlphaBeta::Clock::now() + std::chrono::hours(1), 1);
    EXPECT_EQ(r.score, best);
    EXPECT_EQ(r.depth, 1);
  }
}

// The quiescence value written out plainly: the static evaluation as a
// floor, then the `keep` biggest-gain moves (first generated wins a tie)
// that steal, searched to `depth` more plies.
int plain_quiescence(Position& pos, int depth, int keep) {
  if (pos.game_over()) return 16 * pos.margin_for_side_to_move();
  MoveList list;
  generate_moves(pos, list);
  std::vector<std::pair<int, Move>> by_gain;
  for (const Move& m : list) by_gain.push_back({margin_gain(pos, m), m});
  std::stable_sort(by_gain.begin(), by_gain.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  by_gain.resize(std::min<size_t>(by_gain.size(), size_t(keep)));
  int best = evaluate(pos);
  if (depth == 0) return best;
  Undo undo;
  for (const auto& [gain, m] : by_gain) {
    int stolen = 0;
    for (int r = m.r1; r <= m.r2; ++r)
      for (int c = m.c1; c <= m.c2; ++c) stolen += pos.owner(r, c) == (pos.to_move() == kFirst ? Owner::kSecond : Owner::kFirst);
    if (stolen == 0) continue;
    pos.apply(m, &undo);
    best = std::max(best, -plain_quiescence(pos, depth - 1, keep));
    pos.undo(undo);
  }
  return best;
}

TEST(AlphaBeta, QuiescenceSearchesTheBiggestStealsBeyondTheDepthLimit) {
  int differs = 0, checked = 0;
  for (const Position& start : playout_positions(200, 43)) {
    if (start.game_over()) continue;
    MoveList list;
    generate_moves(start, list);
    int expected = -100000;
    Position p = start;
    Undo undo;
    auto try_move = [&](const Move& m) {
      p.apply(m, &undo);
      const int q = plain_quiescence(p, 2, 3);
      differs += q != (p.game_over() ? 16 * p.margin_for_side_to_move() : evaluate(p));
      expected = std::max(expected, -q);
      p.undo(undo);
    };
    for (const Move& m : list) try_move(m);
    try_move(Move::pass());
    AlphaBeta search(AlphaBetaConfig{.tt_bits = 16, .quiescence_depth = 2, .quiescence_moves = 3});
    const auto r = search.search(start, AlphaBeta::Clock::now() + std::chrono::hours(1), 1);
    EXPECT_EQ(r.score, expected);
    ++checked;
  }
  EXPECT_GE(checked, 150);
  EXPECT_GT(differs, 100);  // the extension changes many leaf values
}

TEST(AlphaBeta, PruningOptionsKeepTheExactValue) {
  // PVS and killers change the order and the windows, never the exact value.
  int checked = 0;
  for (const Position& start : small_endgames(100, 51, 7)) {
    AlphaBeta full, bare(AlphaBetaConfig{.tt_bits = 16, .pvs = false, .killers = false, .lmr = false});
    const auto a = full.solve_exact(start, 300000);
    const auto b = bare.solve_exact(start, 300000);
    if (!a || !b) continue;
    EXPECT_EQ(*a, *b);
    if (++checked == 40) break;
  }
  EXPECT_GE(checked, 20);
}

// Logarithmic late-move reductions cut the tree of a fixed-depth search,
// and never touch the exact mode.
TEST(AlphaBeta, LogarithmicReductionsSearchFewerNodesAndLeaveTheExactModeAlone) {
  uint64_t one_ply = 0, logarithmic = 0;
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  for (const Position& p : playout_positions(8, 61)) {
    if (p.game_over()) continue;
    AlphaBeta plain(AlphaBetaConfig{.tt_bits = 16, .lmr_divisor = 0}),
        reduced(AlphaBetaConfig{.tt_bits = 16, .lmr_divisor = 2});
    const AlphaBetaResult a = plain.search(p, far, 6), b = reduced.search(p, far, 6);
    EXPECT_EQ(b.depth, 6);
    EXPECT_TRUE(b.best.is_pass() || p.is_legal(b.best));
    one_ply += a.nodes;
    logarithmic += b.nodes;
  }
  EXPECT_LT(logarithmic, one_ply * 3 / 4);
  int checked = 0;
  for (const Position& start : small_endgames(30, 53, 7)) {
    AlphaBeta plain(AlphaBetaConfig{.tt_bits = 16, .lmr_divisor = 0}),
        reduced(AlphaBetaConfig{.tt_bits = 16, .lmr_divisor = 1});
    const auto a = plain.solve_exact(start, 300000), b = reduced.solve_exact(start, 300000);
    if (!a || !b) continue;
    EXPECT_EQ(*a, *b);
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// A StaticEvaluator that replays every move it is told of on its own copy of
// the position, and checks at each evaluation that its copy is the search's
// position: the proof that the seam reports every move made and taken back.
class ShadowEvaluator final : public StaticEvaluator {
 public:
  void set_root(const Position& root) override {
    EXPECT_TRUE(stack_.empty()) << "a search began with moves still pushed";
    stack_.assign(1, root);
  }
  void push(const Position& pos, const Move& move) override {
    ASSERT_FALSE(stack_.empty());
    ASSERT_EQ(pos.hash(), stack_.back().hash()) << "push from another position than the search's";
    stack_.push_back(stack_.back());
    stack_.back().apply(move);
    ++pushes;
  }
  void pop() override {
    ASSERT_GT(stack_.size(), 1u) << "pop without a push";
    stack_.pop_back();
  }
  int evaluate(const Position& pos, const LeafMoves& moves) override {
    EXPECT_EQ(pos.hash(), stack_.back().hash()) << "evaluated a position the evaluator was not led to";
    EXPECT_EQ(moves.best_gain, best_margin_gain(pos));
    MoveList list;
    EXPECT_EQ(moves.rectangles, generate_moves(pos, list)) << "the leaf's count of legal rectangles";
    ++evaluations;
    return hand_evaluation(pos, moves.best_gain);
  }
  int evaluate_floor(const Position& pos) override {
    EXPECT_EQ(pos.hash(), stack_.back().hash()) << "bounded a position the evaluator was not led to";
    ++floors;
    return hand_evaluation(pos, 0);
  }
  std::string name() const override { return "shadow"; }
  size_t depth() const { return stack_.size(); }
  int64_t pushes = 0, evaluations = 0, floors = 0;

 private:
  std::vector<Position> stack_;
};

// The evaluation seam: an injected evaluator sees every move the search makes
// and takes back, in stack order, quiescence included; with the hand
// evaluation behind the seam the search is the inline one node for node.
TEST(AlphaBeta, AnInjectedEvaluatorFollowsEveryMoveAndChangesNothing) {
  for (const int quiescence : {0, 3}) {
    for (const Position& p : playout_positions(6, 41)) {
      AlphaBetaConfig config{.tt_bits = 16, .quiescence_depth = quiescence};
      AlphaBeta inline_search(config);
      ShadowEvaluator shadow;
      AlphaBeta seam_search(config, &shadow);
      const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
      const AlphaBetaResult a = inline_search.search(p, far, 4);
      const AlphaBetaResult b = seam_search.search(p, far, 4);
      EXPECT_EQ(a.best, b.best);
      EXPECT_EQ(a.score, b.score);
      EXPECT_EQ(a.depth, b.depth);
      EXPECT_EQ(a.nodes, b.nodes);
      EXPECT_EQ(shadow.depth(), 1u) << "pushes and pops do not balance";
      EXPECT_GT(shadow.pushes, 100);
      EXPECT_GT(shadow.evaluations, 10);
    }
  }
}

// The hand evaluation with no floor: every leaf needs its best gain.
class FloorlessHandEvaluator final : public StaticEvaluator {
 public:
  void set_root(const Position&) override {}
  void push(const Position&, const Move&) override {}
  void pop() override {}
  int evaluate(const Position& pos, const LeafMoves& moves) override { return hand_evaluation(pos, moves.best_gain); }
  std::string name() const override { return "floorless"; }
};

// A leaf whose floor (its evaluation before the best gain) reaches beta is
// cut off without a move generation: fewer leaves need one, and no search
// score changes, since the floor is a true lower bound. (A leaf returns its
// floor, not its value, so the bounds stored in the table differ a little,
// and with them node counts and the choice between equal moves.)
TEST(AlphaBeta, TheEvaluationFloorCutsLeavesAndChangesNoResult) {
  int64_t floors = 0, evaluations = 0;
  for (const Position& p : playout_positions(12, 43)) {
    for (int depth = 1; depth <= 5; ++depth) {
      AlphaBetaConfig config{.tt_bits = 16};
      ShadowEvaluator with_floor;  // checks every bound and evaluation against the search's position
      FloorlessHandEvaluator without_floor;
      AlphaBeta a(config, &with_floor), b(config, &without_floor);
      const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
      const AlphaBetaResult ra = a.search(p, far, depth), rb = b.search(p, far, depth);
      EXPECT_EQ(ra.score, rb.score) << "depth " << depth;
      EXPECT_TRUE(p.is_legal(ra.best));
      floors += with_floor.floors;
      evaluations += with_floor.evaluations;
    }
  }
  // Leaves are bounded first, and a good share never needs the best gain.
  EXPECT_LT(evaluations, floors * 3 / 4);
}

// quiescence_floor: a quiescence node whose floor reaches beta stands pat
// on it without generating its moves, as a plain leaf does. The floor is a
// true lower bound, so no search score changes (the bounds in the table
// differ, as above); far fewer quiescence nodes need their best gain. The
// hand evaluation inline (no evaluator) takes its floor too. Without
// ProbCut only: ProbCut's estimated cuts depend on the bounds the floor
// moves, so with it a score may differ (SearchGolden's position 6).
TEST(AlphaBeta, TheQuiescenceFloorCutsNodesAndChangesNoResult) {
  int64_t evaluations_with = 0, evaluations_without = 0, floors_with = 0;
  int differs_inline = 0, searches = 0;
  for (const Position& p : playout_positions(12, 47)) {
    if (p.game_over()) continue;
    for (int depth = 1; depth <= 4; ++depth) {
      AlphaBetaConfig off{.tt_bits = 16, .quiescence_depth = 2}, on = off;
      on.quiescence_floor = true;
      ShadowEvaluator with_floor, without_floor;  // each checks every bound and evaluation
      AlphaBeta a(on, &with_floor), b(off, &without_floor);
      const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
      const AlphaBetaResult ra = a.search(p, far, depth), rb = b.search(p, far, depth);
      EXPECT_EQ(ra.score, rb.score) << "depth " << depth;
      EXPECT_TRUE(p.is_legal(ra.best));
      evaluations_with += with_floor.evaluations;
      evaluations_without += without_floor.evaluations;
      floors_with += with_floor.floors;
      AlphaBeta inline_on(on), inline_off(off);
      const AlphaBetaResult ia = inline_on.search(p, far, depth), ib = inline_off.search(p, far, depth);
      EXPECT_EQ(ia.score, ib.score) << "inline, depth " << depth;
      EXPECT_EQ(ia.score, ra.score) << "the seam's floor is the inline one";
      differs_inline += ia.nodes != ib.nodes;
      ++searches;
    }
  }
  EXPECT_GE(searches, 40);
  EXPECT_GT(floors_with, evaluations_with);  // every quiescence node is bounded first
  EXPECT_LT(evaluations_with, evaluations_without * 3 / 4);
  EXPECT_GT(differs_inline, 0) << "the option changed no inline search";
}

// A search stopped by its node limit mid-iteration leaves the evaluator
// back at the root, and the exact mode never calls it.
TEST(AlphaBeta, AnInjectedEvaluatorIsBackAtTheRootAfterAStopAndUnusedWhenExact) {
  ShadowEvaluator shadow;
  AlphaBeta search(AlphaBetaConfig{.tt_bits = 16}, &shadow);
  const Position p = playout_positions(1, 5)[0];
  const AlphaBetaResult r = search.search(p, AlphaBeta::Clock::now() + std::chrono::hours(1), 64, 5000);
  EXPECT_LT(r.depth, 64);
  EXPECT_EQ(shadow.depth(), 1u);
  const int64_t pushes = shadow.pushes, evaluations = shadow.evaluations;
  for (const Position& endgame : small_endgames(3, 9, 6)) ASSERT_TRUE(search.solve_exact(endgame, 0).has_value());
  EXPECT_EQ(shadow.pushes, pushes);
  EXPECT_EQ(shadow.evaluations, evaluations);
}

// Move-ordering advice is asked only at the plies it is given for, and never
// by the exact mode; advice that reverses the search's own order changes the
// order, not the legality or the depth reached.
TEST(AlphaBeta, AMoveOrdererIsAskedOnlyInItsPlies) {
  struct Reverser final : MoveOrderer {
    int calls = 0, root_calls = 0;
    Position root;
    bool score(const Position& pos, const Move* moves, int n, float* scores) override {
      ++calls;
      root_calls += pos.hash() == root.hash();
      for (int i = 0; i < n; ++i) scores[i] = float(i);  // the last generated first
      (void)moves;
      return true;
    }
  } advice;
  const Position p = playout_positions(1, 23)[0];
  advice.root = p;
  AlphaBeta search(AlphaBetaConfig{.tt_bits = 16, .orderer_plies = 1});
  search.set_move_orderer(&advice);
  const AlphaBetaResult r = search.search(p, AlphaBeta::Clock::now() + std::chrono::hours(1), 4);
  EXPECT_EQ(r.depth, 4);
  EXPECT_TRUE(r.best.is_pass() || p.is_legal(r.best));
  EXPECT_EQ(advice.calls, advice.root_calls) << "asked below the root";
  EXPECT_EQ(advice.calls, 4);  // once per iteration
  const int before = advice.calls;
  for (const Position& endgame : small_endgames(2, 9, 6)) ASSERT_TRUE(search.solve_exact(endgame, 0).has_value());
  EXPECT_EQ(advice.calls, before);
}

}  // namespace
}  // namespace mushroom
