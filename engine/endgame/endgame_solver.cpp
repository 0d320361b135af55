#include "endgame/endgame_solver.h"

#include <algorithm>
#include <stdexcept>

namespace mushroom {

namespace {
constexpr int kBeyondMargins = 1000;  // beyond any margin (|margin| <= 170)
constexpr uint64_t kEntryKeyBits = ~uint64_t(0xFF);

// log2 of a subtree's nodes, rounded up: what a table entry saved.
int subtree_work(uint64_t subtree_nodes) { return subtree_nodes ? 64 - __builtin_clzll(subtree_nodes) : 0; }
}  // namespace

EndgameSolver::EndgameSolver(EndgameConfig config) : config_(config) {
  table_.resize(size_t(1) << config_.tt_bits);
  mask_ = table_.size() - 1;
}

void EndgameSolver::clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

void EndgameSolver::set_selective(const SelectiveEndgame& selective) {
  if ((selective.fit == nullptr) != (selective.shallow == nullptr))
    throw std::invalid_argument("the selective endgame needs both a fit and a shallow search");
  if (!(selective.sigmas >= 0 && selective.sigmas <= 8)) throw std::invalid_argument("selective sigmas must be in [0, 8]");
  if (selective.min_left < 0 || selective.min_left > 170)
    throw std::invalid_argument("selective min_left must be in [0, 170]");
  selective_ = selective;
  clear();
}

std::optional<int> EndgameSolver::selective_cut(const Position& pos, const ProbCutPair& pair, int alpha, int beta) {
  const AlphaBetaResult r =
      selective_.shallow->search(pos, deadline_ ? *deadline_ : Clock::now() + std::chrono::hours(1), pair.shallow);
  stats_.shallow_nodes += r.nodes;
  // A shallow search costs as much as many of the solver's own nodes, so
  // the deadline is checked after each one, not only every 1,024 nodes (the
  // bot's clock); a search it cut short predicts nothing.
  if (deadline_ && Clock::now() > *deadline_) {
    stopped_ = true;
    return std::nullopt;
  }
  // The fit is in the search's units (16 per cell) on both sides.
  const double predicted = (pair.slope * r.score + pair.offset) / kEvalScale;
  const double margin = selective_.sigmas * pair.spread / kEvalScale;
  if (predicted - margin >= beta) {
    ++stats_.selective_cuts;
    return beta;
  }
  if (predicted + margin <= alpha) {
    ++stats_.selective_cuts;
    return alpha;
  }
  return std::nullopt;
}

void EndgameSolver::start(const Limits& limits) {
  nodes_ = 0;
  node_limit_ = limits.nodes;
  deadline_ = limits.deadline;
  stopped_ = false;
  stats_ = {};
}

void EndgameSolver::count_node() {
  ++nodes_;
  if ((nodes_ & 1023) == 0) {
    if (node_limit_ && nodes_ > node_limit_) stopped_ = true;
    if (deadline_ && Clock::now() > *deadline_) stopped_ = true;
  }
}

EndgameSolver::Entry* EndgameSolver::find(uint64_t key) {
  Entry* bucket = &table_[key & mask_ & ~uint64_t(1)];
  for (int i = 0; i < 2; ++i)
    if (bucket[i].key_work != 0 && ((bucket[i].key_work ^ key) & kEntryKeyBits) == 0) return &bucket[i];
  return nullptr;
}

void EndgameSolver::store(uint64_t key, int lower, int upper, const Move& move, uint64_t subtree_nodes) {
  int work = subtree_work(subtree_nodes);
  Entry* e = find(key);
  if (e) {
    // Both are true bounds on the same exact value: keep the tighter ones.
    // Bounds that contradict each other mean a key collision: the new
    // search's own bounds replace the entry's.
    const int merged_lower = std::max(lower, int(e->lower)), merged_upper = std::min(upper, int(e->upper));
    if (merged_lower <= merged_upper) {
      lower = merged_lower;
      upper = merged_upper;
      work = std::max(work, int(e->key_work & 0xFF));
    }
  } else {
    // Replace the entry whose subtree was smaller.
    Entry* bucket = &table_[key & mask_ & ~uint64_t(1)];
    e = (bucket[0].key_work & 0xFF) <= (bucket[1].key_work & 0xFF) ? &bucket[0] : &bucket[1];
  }
  e->key_work = (key & kEntryKeyBits) | uint64_t(work);
  e->lower = int16_t(lower);
  e->upper = int16_t(upper);
  e->move = move;
}

int EndgameSolver::ordered_moves(Position& pos, const MoveList& list, Move* out, int beta,
                                 std::optional<Move> tt_move, std::optional<int>* cutoff) {
  struct Keyed {
    int key;
    Move move;
  };
  Keyed keyed[kMaxMoves];
  const int n = list.size;
  const bool deep = pos.mushrooms_left() >= config_.ordering_min_left && n > 1;
  Undo undo;
  for (int i = 0; i < n; ++i) {
    const Move& m = list[i];
    const RectangleTake take = rectangle_take(pos, m);
    int key;
    const bool first = tt_move && m == *tt_move;
    if (deep) {
      pos.apply(m, &undo);
      const uint64_t child = pos.hash();
      __builtin_prefetch(&table_[child & mask_ & ~uint64_t(1)]);  // read after the scan below
      int replies = 0;
      const int reply_gain = first ? 0 : best_rectangle_gain(pos, &replies);  // the table's move goes first anyway
      if (config_.etc && cutoff) {
        // The child's table entry may already prove this node >= beta.
        if (const Entry* e = find(child); e && -e->upper >= beta) {
          pos.undo(undo);
          *cutoff = -e->upper;
          return 0;
        }
      }
      pos.undo(undo);
      key = (take.gain - reply_gain) * 256 - replies;
    } else {
      key = take.gain * 256 + take.stolen;
    }
    if (first) key = 1 << 30;
    keyed[i] = {key, m};
  }
  std::stable_sort(keyed, keyed + n, [](const Keyed& a, const Keyed& b) { return a.key > b.key; });
  for (int i = 0; i < n; ++i) out[i] = keyed[i].move;
  return n;
}

int EndgameSolver::search(Position& pos, int alpha, int beta, int ply) {
  count_node();
  if (stopped_) return 0;
  const int now = pos.margin_for_side_to_move();
  if (pos.game_over()) return now;
  const uint64_t key = pos.hash();
  std::optional<Move> tt_move;
  if (const Entry* e = find(key)) {
    tt_move = e->move;
    if (ply > 0) {  // the root must search, to name its move
      const auto table_cutoff = [&](int value) {
        ++stats_.table_cutoffs;
        return value;
      };
      if (e->lower >= beta) return table_cutoff(e->lower);
      if (e->upper <= alpha) return table_cutoff(e->upper);
      if (e->lower == e->upper) return table_cutoff(e->lower);
      alpha = std::max(alpha, int(e->lower));
      beta = std::min(beta, int(e->upper));
    }
  }
  if (selective_.fit && ply > 0 && beta - alpha == 1) {
    const int left = pos.mushrooms_left();
    const ProbCutPair* pair = left >= selective_.min_left ? selective_.fit->exact_at(left) : nullptr;
    if (pair) {
      if (const std::optional<int> cut = selective_cut(pos, *pair, alpha, beta)) return *cut;
      if (stopped_) return 0;
    }
  }
  const uint64_t nodes_before = nodes_;
  const int alpha_start = alpha;
  MoveList list;
  generate_moves(pos, list);
  Undo undo;
  if (list.size == 0) {
    // Only the pass: it ends the game after the opponent's pass.
    if (pos.last_move_was_pass()) return now;
    pos.apply(Move::pass(), &undo);
    const int value = -search(pos, -beta, -alpha, ply + 1);
    pos.undo(undo);
    if (ply == 0) root_best_ = Move::pass();
    return value;
  }

  int best = -kBeyondMargins;
  Move best_move = Move::pass();
  // After the opponent's pass, passing ends the game now: a free lower bound.
  if (pos.last_move_was_pass()) {
    best = now;
    if (ply == 0) root_best_ = Move::pass();
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  Move moves[kMaxMoves];
  std::optional<int> cutoff;
  const int n = ordered_moves(pos, list, moves, beta, tt_move, ply > 0 ? &cutoff : nullptr);
  if (cutoff) {
    ++stats_.etc_cutoffs;
    return *cutoff;
  }
  for (int i = 0; i < n; ++i) {
    const Move& m = moves[i];
    pos.apply(m, &undo);
    int value;
    if (i == 0 || beta - alpha <= 1) {
      value = -search(pos, -beta, -alpha, ply + 1);
    } else {
      value = -search(pos, -alpha - 1, -alpha, ply + 1);
      if (value > alpha && value < beta && !stopped_) value = -search(pos, -beta, -alpha, ply + 1);
    }
    pos.undo(undo);
    if (stopped_) return 0;
    if (value > best) {
      best = value;
      best_move = m;
      if (ply == 0) root_best_ = m;
    }
    if (best > alpha) alpha = best;
    if (alpha >= beta) {
      ++stats_.cutoffs;
      stats_.first_move_cutoffs += i == 0;
      break;
    }
  }
  stats_.every_move_nodes += alpha < beta;  // no rectangle reached beta
  // The pass gives at most the margin now (the opponent may pass too): only
  // worth a search while that could still raise alpha.
  if (alpha < beta && !pos.last_move_was_pass()) {
    if (now <= alpha) {
      // Skipped, but a fail-low result must still bound the pass from above.
      best = std::max(best, now);
    } else {
      pos.apply(Move::pass(), &undo);
      const int value = -search(pos, -beta, -alpha, ply + 1);
      pos.undo(undo);
      if (stopped_) return 0;
      if (value > best) {
        best = value;
        best_move = Move::pass();
        if (ply == 0) root_best_ = best_move;
      }
    }
  }
  const int lower = best > alpha_start ? best : -kBeyondMargins;
  const int upper = best < beta ? best : kBeyondMargins;
  store(key, lower, upper, best_move, nodes_ - nodes_before);
  return best;
}

std::optional<int> EndgameSolver::probe(const Position& root, int alpha, int beta, Move* best) {
  Position pos = root;
  root_best_ = Move::pass();
  const int value = search(pos, alpha, beta, 0);
  if (stopped_) return std::nullopt;
  if (best) *best = root_best_;
  return value;
}

std::optional<int> EndgameSolver::search_window(const Position& root, int alpha, int beta, const Limits& limits,
                                                Move* best) {
  start(limits);
  return probe(root, alpha, beta, best);
}

std::optional<EndgameProof> EndgameSolver::solve(const Position& root, const Limits& limits, int guess) {
  // MTD(f): each probe asks "is the margin at least beta?" and moves the
  // bounds; the table carries what earlier probes proved. The limits hold
  // for all the probes together.
  start(limits);
  EndgameProof proof;
  int lower = -kBeyondMargins, upper = kBeyondMargins, g = std::clamp(guess, -kCells, kCells);
  while (lower < upper) {
    const int beta = g == lower ? g + 1 : g;
    Move move;
    const std::optional<int> value = probe(root, beta - 1, beta, &move);
    ++proof.probes;
    if (!value) return std::nullopt;
    if (*value >= beta) {
      lower = *value;
      proof.best = move;
    } else {
      upper = *value;
    }
    g = *value;
  }
  proof.margin = lower;
  proof.nodes = nodes_;
  return proof;
}

std::optional<EndgameProof> EndgameSolver::solve_wdl(const Position& root, const Limits& limits) {
  EndgameProof proof;
  start(limits);
  const std::optional<int> value = probe(root, -1, 1, &proof.best);
  if (!value) return std::nullopt;
  proof.margin = *value > 0 ? 1 : *value < 0 ? -1 : 0;
  proof.nodes = nodes_;
  proof.probes = 1;
  return proof;
}

std::vector<Move> EndgameSolver::principal_variation(const Position& root, int max_moves) {
  std::vector<Move> line;
  Position pos = root;
  while (int(line.size()) < max_moves && !pos.game_over()) {
    const Entry* e = find(pos.hash());
    if (!e || !pos.is_legal(e->move)) break;
    line.push_back(e->move);
    pos.apply(e->move);
  }
  return line;
}

}  // namespace mushroom
