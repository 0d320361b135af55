#include "alphabeta/alphabeta.h"

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdlib>
#include <utility>

#include "mushroom/greedy.h"
#include "mushroom/movegen.h"

namespace mushroom {

namespace {
constexpr int kInf = 30000;
constexpr uint8_t kExactDepth = 255; // "searched to the end"
// Exact scores (cells) and heuristic ones (1/16 cells) must never mix in the
// table: exact-mode keys carry this salt.
constexpr uint64_t kExactSalt = 0x9E3779B97F4A7C15ull;
}  // namespace

int evaluate(const Position& pos) { return hand_evaluation(pos, best_margin_gain(pos)); }

AlphaBeta::AlphaBeta(AlphaBetaConfig config, StaticEvaluator* evaluator) : config_(config), evaluator_(evaluator) {
  table_.resize(size_t(1) << config_.tt_bits);
  mask_ = table_.size() - 1;
  for (int depth = 0; depth <= 64; ++depth)
    for (int i = 0; i < kReductionMoves; ++i) {
      int r = 1;
      if (config_.lmr_divisor > 0 && depth > 0 && i > 0)
        r = std::max(1, int(0.5 + std::log(double(depth)) * std::log(double(i + 1)) / config_.lmr_divisor));
      reductions_[depth][i] = std::min(r, std::max(1, depth - 2));  // never straight into the leaves
    }
  clear();
}

int AlphaBeta::reduction(int depth, int i) const {
  return reductions_[std::min(depth, 64)][std::min(i, kReductionMoves - 1)];
}

uint64_t AlphaBeta::table_key(const Position& pos, bool exact) const {
  return exact ? pos.hash() ^ kExactSalt : pos.hash();
}

void AlphaBeta::clear() {
  std::fill(table_.begin(), table_.end(), Entry{});
  for (auto& k : killers_) k[0] = k[1] = Move::pass();
}

int AlphaBeta::key_moves(const Position& pos, const MoveList& list, std::optional<Move> tt_move, int ply,
                         KeyedMove* keyed) const {
  const int n = list.size + 1;  // the generated moves, then the pass
  const auto move_at = [&](int i) { return i < list.size ? list.moves[i] : Move::pass(); };
  float advice[kMaxMoves + 1];
  bool advised = false;
  if (orderer_ && !exact_ && ply < config_.orderer_plies) {
    struct WithPass {
      WithPass() {}
      union {
        Move at[kMaxMoves + 1];
      };
    } all;
    for (int i = 0; i < n; ++i) all.at[i] = move_at(i);
    advised = orderer_->score(pos, all.at, n, advice);
  }
  for (int i = 0; i < n; ++i) {
    const Move m = move_at(i);
    const RectangleTake take = rectangle_take(pos, m);
    int key;
    if (tt_move && m == *tt_move) key = kTableMoveKey;
    else if (advised) key = int(std::clamp(advice[i], -1e4f, 1e4f) * 4096.0f);  // the advice alone
    else key = plain_key(m, take, ply);
    keyed[i] = {key, i, take.stolen, m};
  }
  return n;
}

int AlphaBeta::plain_key(const Move& m, const RectangleTake& take, int ply) const {
  if (m.is_pass()) return -1;  // searched last
  return take.stolen * 4096 + take.gain * 16 + killer_bonus(m, ply);
}

int AlphaBeta::moves_before_generation(const Position& pos, std::optional<Move> tt_move, int ply,
                                       KeyedMove* first) const {
  // Off where the keys are the orderer's advice, and at the root, which
  // generates its moves first (as it did when the root's moves were read
  // for a stopped iteration; SearchGolden pins the trees so).
  if (ply == 0 || (orderer_ && !exact_ && ply < config_.orderer_plies)) return 0;
  int n = 0;
  if (tt_move && (tt_move->is_pass() || pos.is_legal(*tt_move)))
    first[n++] = {kTableMoveKey, 0, rectangle_take(pos, *tt_move).stolen, *tt_move};
  if (!config_.killers || ply >= 128) return n;
  static_assert(kKillerKey > kCells * 4096 + 2 * kCells * 16, "a killer's key must top every capture's");
  const int table_moves = n;
  for (const Move& k : killers_[ply]) {
    if (k.is_pass() || (tt_move && k == *tt_move) || !pos.is_legal(k)) continue;
    const RectangleTake take = rectangle_take(pos, k);
    // The index orders equal keys as generation does: by top row, then
    // bottom row, then left column (movegen's scan).
    first[n++] = {plain_key(k, take, ply), (k.r1 * kRows + k.r2) * kCols + k.c1, take.stolen, k};
  }
  if (n == table_moves + 2 && MovePicker::before(first[n - 1], first[n - 2])) std::swap(first[n - 1], first[n - 2]);
  return n;
}

void AlphaBeta::count_node() {
  ++nodes_;
  if ((nodes_ & 1023) == 0) {
    if (node_limit_ && nodes_ > node_limit_) stopped_ = true;
    if (deadline_ && Clock::now() > *deadline_) stopped_ = true;
  }
}

void AlphaBeta::start(bool exact, uint64_t node_limit, std::optional<Clock::time_point> deadline) {
  exact_ = exact;
  stopped_ = false;
  deadline_ = deadline;
  node_limit_ = node_limit;
  nodes_ = 0;
}

void AlphaBeta::play(Position& pos, const Move& move, Undo& undo) {
  if (evaluator_ && !exact_) evaluator_->push(pos, move);
  pos.apply(move, &undo);
}

void AlphaBeta::take_back(Position& pos, const Undo& undo) {
  pos.undo(undo);
  if (evaluator_ && !exact_) evaluator_->pop();
}

std::optional<Move> AlphaBeta::table_move(const Position& pos, bool exact) {
  const uint64_t key = table_key(pos, exact);
  const Entry* e = probe(key);
  if (e->bound == Bound::kNone || e->key != key) return std::nullopt;
  return e->move;
}

int AlphaBeta::quiescence(Position& pos, int alpha, int beta, int depth_left) {
  count_node();
  if (stopped_) return 0;
  if (pos.game_over()) return finished_score(pos);
  if (config_.quiescence_floor) {
    const int floor = leaf_floor(pos);
    if (floor >= beta) return floor;
  }
  MoveList list;
  generate_moves(pos, list);
  struct Gain {
    int gain;
    Move move;
  };
  Gain top[8];
  const int keep = std::min(config_.quiescence_moves, 8);
  int kept = 0;
  for (const Move& m : list) {
    const int g = margin_gain(pos, m);
    if (kept < keep) top[kept++] = {g, m};
    else if (g <= top[kept - 1].gain) continue;
    else top[kept - 1] = {g, m};
    for (int i = kept - 1; i > 0 && top[i].gain > top[i - 1].gain; --i) std::swap(top[i], top[i - 1]);
  }
  const int stand = leaf_score(pos, {kept ? top[0].gain : 0, list.size});  // without a second move list
  if (depth_left <= 0 || stand >= beta) return stand;
  int best = stand;
  alpha = std::max(alpha, stand);
  Undo undo;
  for (int i = 0; i < kept; ++i) {
    if (rectangle_take(pos, top[i].move).stolen == 0) continue;  // only captures can overturn the estimate
    play(pos, top[i].move, undo);
    const int score = -quiescence(pos, -beta, -alpha, depth_left - 1);
    take_back(pos, undo);
    if (stopped_) return 0;
    if (score > best) best = score;
    if (score > alpha) alpha = score;
    if (alpha >= beta) break;
  }
  return best;
}

int AlphaBeta::horizon(Position& pos, int alpha, int beta) {
  if (config_.quiescence_depth > 0) return quiescence(pos, alpha, beta, config_.quiescence_depth);
  // The evaluation grows with the best gain, whose search costs a move
  // generation: a leaf that reaches beta without it is cut off.
  const int floor = leaf_floor(pos);
  if (floor >= beta) return floor;
  return leaf_score(pos, scan_leaf_moves(pos));
}

// Inlined into negamax's move loops, as the lambda it was split from: the
// call measured 1-3% of the exported bot's nodes a second.
__attribute__((always_inline)) inline AlphaBeta::After AlphaBeta::search_child(Position& pos, Node& node, int i,
                                                                               const Move& m, bool quiet) {
  const int depth = node.depth, ply = node.ply;
  if (i == 0) node.best_move = m;
  Undo undo;
  play(pos, m, undo);
  // The child probes the table unless it is a leaf: start loading its
  // entry now (a table of megabytes misses the caches).
  if (depth > 1) __builtin_prefetch(probe(table_key(pos, exact_)));
  int score;
  if (i == 0 || !config_.pvs) {
    score = -negamax(pos, depth - 1, -node.beta, -node.alpha, ply + 1);
  } else {
    const int reduced_by = config_.lmr && !exact_ && depth >= 3 && i >= 4 && quiet ? reduction(depth, i) : 0;
    score = -negamax(pos, depth - 1 - reduced_by, -node.alpha - 1, -node.alpha, ply + 1);
    if (score > node.alpha && reduced_by) score = -negamax(pos, depth - 1, -node.alpha - 1, -node.alpha, ply + 1);
    if (score > node.alpha && score < node.beta) score = -negamax(pos, depth - 1, -node.beta, -node.alpha, ply + 1);
  }
  take_back(pos, undo);
  if (stopped_) return After::kStopped;
  if (score > node.best) {
    node.best = score;
    node.best_move = m;
  }
  if (score > node.alpha) node.alpha = score;
  if (node.alpha < node.beta) return After::kGoOn;
  if (config_.killers && ply < 128 && !m.is_pass() && !(m == killers_[ply][0])) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = m;
  }
  return After::kCutoff;
}

int AlphaBeta::negamax(Position& pos, int depth, int alpha, int beta, int ply) {
  count_node();
  if (stopped_) return 0;
  if (pos.game_over()) return finished_score(pos);
  if (!exact_ && depth <= 0) return horizon(pos, alpha, beta);

  const int alpha_start = alpha;
  const uint8_t want_depth = exact_ ? kExactDepth : uint8_t(std::min(depth, 254));
  const uint64_t key = table_key(pos, exact_);
  Entry* entry = probe(key);
  std::optional<Move> tt_move;
  if (entry->bound != Bound::kNone && entry->key == key) {
    tt_move = entry->move;
    if (entry->depth >= want_depth) {
      const int s = entry->score;
      if (entry->bound == Bound::kExact) return s;
      if (entry->bound == Bound::kLower) alpha = std::max(alpha, s);
      if (entry->bound == Bound::kUpper) beta = std::min(beta, s);
      if (alpha >= beta) return s;
    }
  }
  if (probcut_ && !exact_ && ply > 0 && beta - alpha == 1 && depth >= config_.probcut_depth) {
    if (const ProbCutPair* pair = probcut_->at(pos.mushrooms_left(), depth)) {
      const int cut = probcut(pos, *pair, alpha, beta, ply);
      if (stopped_) return 0;
      if (cut != kNoCut) return cut;
      // The shallow searches stored their best move here: it leads.
      if (entry->bound != Bound::kNone && entry->key == key) tt_move = entry->move;
    }
  }
  Node node{depth, ply, alpha, beta, -kInf, Move()};

  // The table's move and the killers come first in the keys' order; they
  // are searched before the moves are generated, so a node that one of them
  // cuts off, as most do, never generates or keys its moves. The order stays
  // exactly the keys' (moves_before_generation).
  KeyedMove first[3];
  const int n_first = moves_before_generation(pos, tt_move, ply, first);
  for (int i = 0; i < n_first; ++i) {
    const After after = search_child(pos, node, i, first[i].move, first[i].steals == 0);
    if (after == After::kStopped) return 0;
    if (after == After::kCutoff) {
      store(entry, key, node.best, want_depth, alpha_start, beta, node.best_move);
      return node.best;
    }
  }

  MoveList list;
  generate_moves(pos, list);
  KeyedMoves keyed;
  const int n = key_moves(pos, list, tt_move, ply, keyed.at);
  MovePicker picker(keyed.at, n);
  for (int i = 0; i < n_first; ++i) picker.pick(i);  // the moves searched above, in the same order
  for (int i = n_first; i < n; ++i) {
    const KeyedMove& next = picker.pick(i);
    const After after = search_child(pos, node, i, next.move, next.steals == 0);  // the pass steals nothing
    if (after == After::kStopped) return 0;
    if (after == After::kCutoff) break;
  }
  store(entry, key, node.best, want_depth, alpha_start, beta, node.best_move);
  return node.best;
}

int AlphaBeta::probcut(Position& pos, const ProbCutPair& pair, int alpha, int beta, int ply) {
  // Scores past this are out of any search's reach (170 cells of margin
  // are 2,720): a bound beyond it is not tried.
  constexpr int kReach = 4000;
  const double margin = config_.probcut_sigmas * pair.spread;
  // A bound far past any score (a fit's tiny slope or huge offset, which
  // the reader takes as long as they are finite) is held inside int's range
  // before it is made an int: the comparisons below decide it the same.
  const auto bound = [](double value) { return int(std::clamp(value, -1e9, 1e9)); };
  // The deep value is predicted at least beta when slope * v + offset -
  // margin >= beta, that is when v >= high.
  const int high = bound(std::ceil((beta + margin - pair.offset) / pair.slope));
  if (high < kReach && negamax(pos, pair.shallow, high - 1, high, ply) >= high) return beta;
  if (stopped_) return kNoCut;
  const int low = bound(std::floor((alpha - margin - pair.offset) / pair.slope));
  if (low > -kReach && negamax(pos, pair.shallow, low, low + 1, ply) <= low) return alpha;
  return kNoCut;
}

void AlphaBeta::store(Entry* entry, uint64_t key, int best, uint8_t depth, int alpha_start, int beta,
                      const Move& best_move) {
  entry->key = key;
  entry->score = int16_t(best);
  entry->depth = depth;
  entry->bound = best <= alpha_start ? Bound::kUpper : best >= beta ? Bound::kLower : Bound::kExact;
  entry->move = best_move;
}

AlphaBetaResult AlphaBeta::search(const Position& root, Clock::time_point deadline, int max_depth,
                                  uint64_t node_limit, std::optional<Clock::time_point> soft_deadline) {
  AlphaBetaResult result;
  start(false, node_limit, deadline);
  MoveList list;
  generate_moves(root, list);
  result.best = greedy_move(list);  // in case not even depth 1 completes
  Position pos = root;
  if (evaluator_) evaluator_->set_root(root);
  for (int depth = 1; depth <= max_depth; ++depth) {
    const int score = negamax(pos, depth, -kInf, kInf, 0);
    if (stopped_) break;  // the unfinished iteration is not used
    if (const std::optional<Move> move = table_move(root, exact_)) result.best = *move;
    result.score = score;
    result.depth = depth;
    if (Clock::now() > soft_deadline.value_or(deadline)) break;
  }
  result.nodes = nodes_;
  return result;
}

std::vector<Move> AlphaBeta::principal_variation(const Position& root, bool exact, int max_moves) {
  std::vector<Move> line;
  Position pos = root;
  while (int(line.size()) < max_moves && !pos.game_over()) {
    const std::optional<Move> move = table_move(pos, exact);
    if (!move || !pos.is_legal(*move)) break;
    line.push_back(*move);
    pos.apply(*move);
  }
  return line;
}

std::optional<int> AlphaBeta::solve_exact(const Position& root, uint64_t node_limit, Move* best,
                                          std::optional<Clock::time_point> deadline) {
  return solve_window(root, -kInf, kInf, node_limit, best, deadline);
}

std::optional<int> AlphaBeta::solve_window(const Position& root, int alpha, int beta, uint64_t node_limit, Move* best,
                                           std::optional<Clock::time_point> deadline) {
  start(true, node_limit, deadline);
  Position pos = root;
  const int score = negamax(pos, 0, alpha, beta, 0);
  const std::optional<Move> move = stopped_ ? std::nullopt : table_move(root, exact_);
  exact_ = false;
  if (stopped_) return std::nullopt;
  if (best) *best = move.value_or(Move::pass());
  return score;
}

}  // namespace mushroom
