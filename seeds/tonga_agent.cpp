#include "seeds/tonga_agent.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <stdexcept>

#include "seeds/tonga_server.h"
#include "util/cpu_clock.h"

namespace mushroom::tonga {

int TongaGame::legal_actions(const State& s, Action* out) {
  int n = 0;
  s.board.empty(*s.geometry).for_each([&](int cell) { out[n++] = Action(cell); });
  return n;
}

double TongaGame::terminal_margin(const State& s) {
  const Color me = s.board.to_move;
  return double(tonga_score(*s.geometry, s.board.stones[me]) - tonga_score(*s.geometry, s.board.stones[other(me)]));
}

uint64_t TongaGame::hash(const State& s) {
  uint64_t h = 0x70a9a + uint64_t(s.board.to_move);
  for (const Bits& b : s.board.stones)
    for (uint64_t w : b.w) {
      h ^= w;
      h = Rng::splitmix64(h);
    }
  return h;
}

void TongaPlayoutEvaluator::evaluate(Span<const EvalRequest<TongaGame>> requests, Span<EvalResult> results) {
  for (size_t i = 0; i < requests.size(); ++i) {
    const TongaState& s = *requests[i].state;
    const Geometry& g = *s.geometry;
    std::vector<int> empty;
    s.board.empty(g).for_each([&](int c) { empty.push_back(c); });
    const Color me = s.board.to_move;
    double margin_sum = 0, value_sum = 0;
    const double scale = 0.25 * g.n() * g.n();
    for (int p = 0; p < playouts_; ++p) {
      Bits mine = s.board.stones[me], theirs = s.board.stones[other(me)];
      // Random fill: shuffle, then alternate colours starting with the mover.
      for (size_t k = 0; k < empty.size(); ++k) {
        const size_t j = k + rng_.uniform(uint32_t(empty.size() - k));
        std::swap(empty[k], empty[j]);
        (k % 2 == 0 ? mine : theirs).set(empty[k]);
      }
      const double m = double(tonga_score(g, mine) - tonga_score(g, theirs));
      margin_sum += m;
      value_sum += std::tanh(m / scale);
    }
    EvalResult& r = results[i];
    r.value = float(value_sum / playouts_);
    r.margin = float(margin_sum / playouts_);
    r.priors.assign(requests[i].num_actions, 1.0f / float(requests[i].num_actions));
  }
}

namespace {
MctsConfig tonga_mcts_config(const TongaAgentConfig& c) {
  MctsConfig m;
  m.seed = c.seed;
  m.score_weight = 0;  // the value already carries the margin through tanh
  m.c_puct = 1.5;
  m.max_nodes = c.max_nodes;
  return m;
}
}  // namespace

TongaAgent::TongaAgent(const Geometry& g, Color me, TongaAgentConfig config)
    : g_(g), me_(me), config_(config), mcts_(tonga_mcts_config(config)), evaluator_(config.playouts_per_leaf, config.seed) {
  if (config.kind == "minimax") minimax_ = std::make_unique<TongaServer>(g, me, config.seed);
  else if (config.kind == "exploit") server_model_ = std::make_unique<TongaServer>(g, other(me), config.seed);
  else if (config.kind != "mcts")
    throw std::invalid_argument("unknown PseudoTonga agent '" + config.kind + "' (exploit, mcts, minimax)");
}

TongaAgent::~TongaAgent() = default;

int TongaAgent::choose(const Board& board, double remaining_ms) {
  if (minimax_) return minimax_->choose(board);
  const int empties = g_.n() * g_.n() - board.placed;
  const int my_moves_left = (empties + 1) / 2;
  // An even share of what is left, a little more early (more to decide).
  const double budget_ms = config_.time_fraction * remaining_ms / std::max(1, my_moves_left) * (empties > 8 ? 1.3 : 1.0);
  if (server_model_) return choose_exploit(board, budget_ms);
  const double deadline = thread_cpu_ms() + std::max(1.0, budget_ms);
  mcts_.reset(TongaState{&g_, board});  // fresh tree each move: bounded memory
  last_sims_ = mcts_.run(evaluator_, 1 << 30, [&] {
    return thread_cpu_ms() >= deadline || mcts_.tree_size() > config_.max_nodes;
  });
  return mcts_.best_action();
}

int TongaAgent::choose_exploit(const Board& board, double budget_ms) {
  const double start = thread_cpu_ms();
  const Color us = me_, them = other(me_);
  IsleTracker tracker(g_, board);
  std::vector<std::pair<int64_t, int>> order;
  tracker.empty().for_each([&](int cell) { order.emplace_back(-tracker.gain_if_placed(cell, us), cell); });
  std::sort(order.begin(), order.end());
  // Our position after the server's reply: the evaluation from our side plus
  // our best next gain; on a full board, the final margin itself.
  auto value_after = [&](const Board& b) -> double {
    if (b.full(g_)) return 1e12 + double(tonga_score(g_, b.stones[us]) - tonga_score(g_, b.stones[them]));
    if (config_.deep) {
      int64_t score = 0;
      TongaServer(g_, us, 1).best_squares(b, &score);  // our own 3-ply look from here
      return double(score);
    }
    IsleTracker t(g_, b);
    int64_t best_next = std::numeric_limits<int64_t>::min();
    t.empty().for_each([&](int x) { best_next = std::max(best_next, t.gain_if_placed(x, us)); });
    return double(t.weighted(us) - t.weighted(them) + best_next);
  };
  int best_cell = order.front().second;
  double best_value = -std::numeric_limits<double>::infinity();
  int examined = 0;
  for (const auto& [unused, o] : order) {
    if (examined >= config_.candidates) break;
    if (examined > 0 && thread_cpu_ms() - start > budget_ms) break;
    ++examined;
    Board b1 = board;
    b1.place(o);
    double value;
    if (b1.full(g_)) {
      value = value_after(b1);
    } else {
      const std::vector<int> replies = server_model_->best_squares(b1);  // ties: the server picks uniformly
      value = 0;
      for (int s : replies) {
        Board b2 = b1;
        b2.place(s);
        value += value_after(b2) / double(replies.size());
      }
    }
    if (value > best_value) best_value = value, best_cell = o;
  }
  last_sims_ = examined;
  return best_cell;
}

}  // namespace mushroom::tonga
