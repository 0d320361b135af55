// Monte Carlo tree search, generic over the game interface (search/game.h).
//
// - PUCT selection with priors and values from an Evaluator, first-play
//   urgency for unvisited children, values from the mover's point of view.
// - Utility = value + score_weight * tanh(margin / score_scale): the final
//   score margin is a secondary target.
// - Gumbel root (optional): Gumbel-top-k sampling plus sequential halving at
//   the root, and the completed-Q improved policy as the training target.
// - MCTS-solver: terminal leaves, and leaves an exact solver hook proves, are
//   marked solved; proofs propagate up (a child that wins for the side to
//   move proves the parent; all children proven proves it too).
// - Tree reuse: advance(action) re-roots on the child, for our moves and the
//   opponent's alike.
// - One leaf at a time through select_leaf / leaf_request / finish_leaf, so a
//   driver can run many searches and batch their leaves (no locks: one tree
//   per search, one thread per tree).
#pragma once
#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "search/evaluator.h"
#include "search/game.h"

namespace mushroom {

struct MctsConfig {
  double c_puct = 1.25;
  double fpu_reduction = 0.25;  // unvisited child: parent's value minus this * sqrt(visited prior)
  double score_weight = 0.3;
  double score_scale = 10.0;
  // Gumbel root.
  bool gumbel = false;
  int gumbel_k = 16;            // candidate actions sampled at the root
  double gumbel_c_visit = 50.0;
  double gumbel_c_scale = 1.0;
  bool gumbel_noise = true;     // false: top-k by prior alone (deterministic)
  // Dirichlet noise on the root priors (PUCT), for self-play exploration.
  double dirichlet_alpha = 0.0;  // 0: off
  double dirichlet_fraction = 0.25;
  uint64_t seed = 1;
  size_t max_nodes = 3'000'000;  // the tree is compacted on re-rooting past half of this
};

// Exact result for a leaf, when a solver can prove one cheaply: the final
// margin for the side to move. Returns nullopt when it cannot.
template <typename Game>
using ExactSolverHook = std::function<std::optional<double>(const typename Game::State&)>;

template <MUSHROOM_SEARCH_GAME Game>
class Mcts {
 public:
  using State = typename Game::State;
  using Action = typename Game::Action;

  enum Solved : int8_t { kUnsolved = 0, kWin = 1, kDraw = 2, kLoss = 3 };  // for the node's mover

  struct Node {
    Action action{};
    float prior = 0;
    uint32_t visits = 0;
    double utility_sum = 0;  // the mover's view (the player who moved into this node)
    double margin_sum = 0;
    uint32_t first_child = 0;
    uint16_t num_children = 0;
    bool expanded = false;
    Solved solved = kUnsolved;
    float solved_utility = 0;
    float solved_margin = 0;
    double q() const { return visits ? utility_sum / visits : 0.0; }
  };

  struct ChildStats {
    Action action;
    uint32_t visits;
    double q;       // the mover's (root side to move) utility
    double margin;  // the mover's mean margin
    float prior;
    Solved solved;
  };

  explicit Mcts(MctsConfig config = {}) : config_(config), rng_(config.seed) {}

  void set_solver(ExactSolverHook<Game> hook) { solver_ = std::move(hook); }
  // Restarts the noise stream (Gumbel, Dirichlet): self-play reseeds it per
  // game, so a game depends on its own seed, not on what its slot played before.
  void reseed(uint64_t seed) { rng_.seed(seed); }
  const MctsConfig& config() const { return config_; }

  // Starts a fresh tree at state.
  void reset(const State& state) {
    nodes_.clear();
    nodes_.emplace_back();
    root_ = 0;
    root_state_ = state;
    gumbel_ready_ = false;
    pending_noise_alpha_ = 0;
  }

  // Moves the root along an action that was played; keeps the subtree when
  // the child exists, else starts fresh.
  void advance(const Action& action) {
    State next = root_state_;
    Game::apply(next, action);
    const Node& root = nodes_[root_];
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const uint32_t child = root.first_child + i;
      if (nodes_[child].action == action) {
        root_ = child;
        root_state_ = next;
        gumbel_ready_ = false;
        pending_noise_alpha_ = 0;
        if (nodes_.size() > config_.max_nodes / 2) compact();
        return;
      }
    }
    reset(next);
  }

  // Mixes Dirichlet noise into the root's priors once: now if the root is
  // expanded (a reused tree), else when it is. For self-play moves chosen
  // one by one (config.dirichlet_alpha noises every root expansion).
  void add_root_noise(double alpha, double fraction) {
    if (alpha <= 0) return;
    if (nodes_[root_].expanded) {
      add_dirichlet_noise(alpha, fraction);
    } else {
      pending_noise_alpha_ = alpha;
      pending_noise_fraction_ = fraction;
    }
  }

  const State& root_state() const { return root_state_; }
  const Node& root() const { return nodes_[root_]; }
  size_t tree_size() const { return nodes_.size(); }

  // Prepares the Gumbel schedule for `budget` more simulations (needed only
  // with config.gumbel; without it the root is plain PUCT).
  void begin_search(int budget) {
    budget_ = std::max(1, budget);
    gumbel_ready_ = false;
  }

  // Walks down to a leaf. Returns true when that leaf needs an evaluation
  // (then call leaf_request and finish_leaf); false when the simulation was
  // finished inside (terminal, solved or proven leaf).
  bool select_leaf() {
    path_.clear();
    movers_.clear();
    path_.push_back(root_);
    leaf_state_ = root_state_;
    movers_.push_back(1 - Game::to_move(leaf_state_));
    uint32_t node = root_;
    while (nodes_[node].expanded && nodes_[node].solved == kUnsolved && !Game::is_terminal(leaf_state_)) {
      const uint32_t child = node == root_ && config_.gumbel ? select_gumbel_root() : select_puct(node);
      movers_.push_back(Game::to_move(leaf_state_));
      Game::apply(leaf_state_, nodes_[child].action);
      path_.push_back(child);
      node = child;
    }
    Node& leaf = nodes_[node];
    if (leaf.solved != kUnsolved) {
      // Stored for the mover; backup takes the side to move's view (the
      // games here alternate turns, passes included).
      backup(-leaf.solved_utility, -leaf.solved_margin);
      return false;
    }
    if (Game::is_terminal(leaf_state_)) {
      const double margin = Game::terminal_margin(leaf_state_);
      mark_solved(node, -Game::terminal_value(leaf_state_), -margin);
      backup(utility(Game::terminal_value(leaf_state_), margin), margin);
      propagate_proofs();
      return false;
    }
    num_leaf_actions_ = Game::legal_actions(leaf_state_, leaf_actions_.data());
    if (solver_ && node != root_) {  // the root is the agent's to solve
      if (const auto exact = solver_(leaf_state_)) {
        const double value = (*exact > 0) - (*exact < 0);
        mark_solved(node, -value, -*exact);
        backup(utility(value, *exact), *exact);
        propagate_proofs();
        return false;
      }
    }
    return true;
  }

  EvalRequest<Game> leaf_request() const { return {&leaf_state_, leaf_actions_.data(), num_leaf_actions_}; }

  void finish_leaf(const EvalResult& result) {
    const uint32_t node = path_.back();
    expand(node, &result.priors);
    if (node == root_ && config_.dirichlet_alpha > 0) add_dirichlet_noise(config_.dirichlet_alpha, config_.dirichlet_fraction);
    if (node == root_ && pending_noise_alpha_ > 0) {
      add_dirichlet_noise(pending_noise_alpha_, pending_noise_fraction_);
      pending_noise_alpha_ = 0;
    }
    backup(utility(result.value, result.margin), result.margin);
  }

  // Runs simulations one leaf at a time until `simulations` are done or
  // should_stop() says so (checked between simulations).
  int run(Evaluator<Game>& evaluator, int simulations, const std::function<bool()>& should_stop = nullptr) {
    EvalResult result;
    int done = 0;
    for (; done < simulations; ++done) {
      if (should_stop && should_stop()) break;
      if (root().solved != kUnsolved && root().expanded) break;  // nothing left to learn
      if (select_leaf()) {
        const EvalRequest<Game> request = leaf_request();
        evaluator.evaluate(Span<const EvalRequest<Game>>(&request, 1), Span<EvalResult>(&result, 1));
        finish_leaf(result);
      }
    }
    return done;
  }

  std::vector<ChildStats> root_children() const {
    std::vector<ChildStats> out;
    const Node& root = nodes_[root_];
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      out.push_back({c.action, c.visits, c.q(), c.visits ? c.margin_sum / c.visits : 0.0, c.prior, c.solved});
    }
    return out;
  }

  // The move to play. A proven win is taken (best margin); otherwise Gumbel
  // picks the sequential-halving winner and PUCT the most visited child
  // (ties by Q), never a proven loss when something else is left.
  Action best_action() const {
    const Node& root = nodes_[root_];
    if (root.num_children == 0) return Action{};
    // Each rule ranks children by a key compared element by element; the
    // first child with the greatest key wins.
    const Node* best_win = nullptr;
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      if (c.solved == kWin && (!best_win || c.solved_margin > best_win->solved_margin)) best_win = &c;
    }
    if (best_win) return best_win->action;
    if (config_.gumbel && gumbel_ready_ && !remaining_.empty()) {
      uint32_t best = remaining_.front();
      std::pair<bool, double> best_key{false, -std::numeric_limits<double>::infinity()};
      for (uint32_t child : remaining_) {
        const std::pair<bool, double> key{nodes_[child].solved != kLoss, gumbel_score(child)};
        if (key > best_key) best_key = key, best = child;
      }
      return nodes_[best].action;
    }
    uint32_t best = root.first_child;
    std::tuple<bool, uint32_t, double> best_key{false, 0, -std::numeric_limits<double>::infinity()};
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      const std::tuple<bool, uint32_t, double> key{c.solved != kLoss, c.visits, c.q()};
      if (key > best_key) best_key = key, best = root.first_child + i;
    }
    return nodes_[best].action;
  }

  // Visits of the most visited root child minus the runner-up's: when no
  // remaining simulations can close this gap, the choice cannot change.
  uint32_t root_visit_lead() const {
    uint32_t first = 0, second = 0;
    const Node& root = nodes_[root_];
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const uint32_t v = nodes_[root.first_child + i].visits;
      if (v > first) second = first, first = v;
      else if (v > second) second = v;
    }
    return first - second;
  }

  // The training target: softmax(logits + sigma(completed Q)) with Gumbel,
  // else the visit distribution. One probability per root child, in order.
  std::vector<float> improved_policy() const {
    const Node& root = nodes_[root_];
    std::vector<float> out(root.num_children, 0.f);
    if (root.num_children == 0) return out;
    if (!config_.gumbel) {
      double total = 0;
      for (uint32_t i = 0; i < root.num_children; ++i) total += nodes_[root.first_child + i].visits;
      for (uint32_t i = 0; i < root.num_children; ++i)
        out[i] = total > 0 ? float(nodes_[root.first_child + i].visits / total) : nodes_[root.first_child + i].prior;
      return out;
    }
    const double v_mix = mixed_value();
    double max_visits = 0;
    for (uint32_t i = 0; i < root.num_children; ++i)
      max_visits = std::max(max_visits, double(nodes_[root.first_child + i].visits));
    std::vector<double> logits(root.num_children);
    double top = -std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      const double q = c.visits ? c.q() : v_mix;
      logits[i] = std::log(std::max(1e-12f, c.prior)) + sigma(q, max_visits);
      top = std::max(top, logits[i]);
    }
    double total = 0;
    for (uint32_t i = 0; i < root.num_children; ++i) total += (logits[i] = std::exp(logits[i] - top));
    for (uint32_t i = 0; i < root.num_children; ++i) out[i] = float(logits[i] / total);
    return out;
  }

 private:
  double utility(double value, double margin) const {
    return value + config_.score_weight * std::tanh(margin / config_.score_scale);
  }

  // sigma(q) of the Gumbel paper, with q mapped from utility to [0, 1].
  double sigma(double q, double max_visits) const {
    const double bound = 1.0 + config_.score_weight;
    const double normalized = std::clamp((q + bound) / (2 * bound), 0.0, 1.0);
    return (config_.gumbel_c_visit + max_visits) * config_.gumbel_c_scale * normalized;
  }

  // v_mix: the root value blended with the prior-weighted Q of visited children.
  double mixed_value() const {
    const Node& root = nodes_[root_];
    const double root_value = -root.q();  // root's stats are for its mover
    double visits = 0, prior_sum = 0, weighted = 0;
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      if (!c.visits) continue;
      visits += c.visits;
      prior_sum += c.prior;
      weighted += c.prior * c.q();
    }
    if (prior_sum <= 0) return root_value;
    return (root_value + visits * weighted / prior_sum) / (1 + visits);
  }

  double gumbel_score(uint32_t child) const {
    double max_visits = 0;
    const Node& root = nodes_[root_];
    for (uint32_t i = 0; i < root.num_children; ++i)
      max_visits = std::max(max_visits, double(nodes_[root.first_child + i].visits));
    const Node& c = nodes_[child];
    const double q = c.visits ? c.q() : mixed_value();
    return gumbel_[child - root.first_child] + std::log(std::max(1e-12f, c.prior)) + sigma(q, max_visits);
  }

  uint32_t select_puct(uint32_t node_index) {
    const Node& node = nodes_[node_index];
    const double parent_q = node.visits ? -node.q() : 0.0;
    double visited_prior = 0;
    for (uint32_t i = 0; i < node.num_children; ++i) {
      const Node& c = nodes_[node.first_child + i];
      if (c.visits) visited_prior += c.prior;
    }
    const double fpu = parent_q - config_.fpu_reduction * std::sqrt(visited_prior);
    const double sqrt_n = std::sqrt(double(std::max<uint32_t>(1, node.visits)));
    uint32_t best = node.first_child;
    // A proven loss only when nothing else is left, then the best PUCT score.
    std::pair<bool, double> best_key{false, -std::numeric_limits<double>::infinity()};
    for (uint32_t i = 0; i < node.num_children; ++i) {
      const uint32_t child = node.first_child + i;
      const Node& c = nodes_[child];
      if (c.solved == kWin) return child;  // a proven win: nothing better
      const double q = c.visits ? c.q() : fpu;
      const std::pair<bool, double> key{c.solved != kLoss, q + config_.c_puct * c.prior * sqrt_n / (1 + c.visits)};
      if (key > best_key) best_key = key, best = child;
    }
    return best;
  }

  // Sequential halving over the Gumbel-top-k candidates.
  uint32_t select_gumbel_root() {
    if (!gumbel_ready_) start_gumbel();
    while (true) {
      for (uint32_t child : remaining_)
        if (nodes_[child].visits < phase_target_[child - nodes_[root_].first_child]) return child;
      if (remaining_.size() <= 1) {
        // The schedule is spent: keep refining the winner.
        ++phase_target_[remaining_.front() - nodes_[root_].first_child];
        continue;
      }
      halve();
    }
  }

  void start_gumbel() {
    const Node& root = nodes_[root_];
    gumbel_.assign(root.num_children, 0.0);
    std::extreme_value_distribution<double> gumbel_dist(0.0, 1.0);
    if (config_.gumbel_noise)
      for (auto& g : gumbel_) g = gumbel_dist(rng_);
    candidates_.clear();
    for (uint32_t i = 0; i < root.num_children; ++i) candidates_.push_back(root.first_child + i);
    std::stable_sort(candidates_.begin(), candidates_.end(), [&](uint32_t a, uint32_t b) {
      const Node& na = nodes_[a];
      const Node& nb = nodes_[b];
      return gumbel_[a - root.first_child] + std::log(std::max(1e-12f, na.prior)) >
             gumbel_[b - root.first_child] + std::log(std::max(1e-12f, nb.prior));
    });
    const size_t m = std::min<size_t>(size_t(config_.gumbel_k), candidates_.size());
    candidates_.resize(m);
    remaining_ = candidates_;
    phases_ = m <= 1 ? 1 : int(std::ceil(std::log2(double(m))));
    phase_target_.assign(root.num_children, 0);
    set_phase_targets();
    gumbel_ready_ = true;
  }

  void set_phase_targets() {
    const int per = std::max(1, int(budget_ / (phases_ * int(remaining_.size()))));
    for (uint32_t child : remaining_) phase_target_[child - nodes_[root_].first_child] = nodes_[child].visits + uint32_t(per);
  }

  void halve() {
    std::stable_sort(remaining_.begin(), remaining_.end(),
              [&](uint32_t a, uint32_t b) { return gumbel_score(a) > gumbel_score(b); });
    remaining_.resize((remaining_.size() + 1) / 2);
    set_phase_targets();
  }

  void expand(uint32_t node_index, const std::vector<float>* priors) {
    const int n = num_leaf_actions_;
    const uint32_t first = uint32_t(nodes_.size());
    for (int i = 0; i < n; ++i) {
      Node child;
      child.action = leaf_actions_[size_t(i)];
      child.prior = priors ? (*priors)[size_t(i)] : 1.f / float(n);
      nodes_.push_back(child);
    }
    Node& node = nodes_[node_index];
    node.first_child = first;
    node.num_children = uint16_t(n);
    node.expanded = true;
  }

  // value/margin are for the side to move at the leaf; every node on the
  // path records them for its own mover.
  void backup(double leaf_utility, double leaf_margin) {
    const int leaf_to_move = Game::to_move(leaf_state_);
    for (size_t i = 0; i < path_.size(); ++i) {
      Node& n = nodes_[path_[i]];
      const double sign = movers_[i] == leaf_to_move ? 1.0 : -1.0;
      n.visits += 1;
      n.utility_sum += sign * leaf_utility;
      n.margin_sum += sign * leaf_margin;
    }
  }

  void mark_solved(uint32_t node, double mover_value, double mover_margin) {
    Node& n = nodes_[node];
    n.solved = mover_value > 0 ? kWin : mover_value < 0 ? kLoss : kDraw;
    n.solved_margin = float(mover_margin);
    n.solved_utility = float(utility(mover_value, mover_margin));
  }

  // After a leaf was solved, proofs move up the path while they hold.
  void propagate_proofs() {
    for (size_t i = path_.size() - 1; i-- > 0;) {
      const uint32_t idx = path_[i];
      Node& node = nodes_[idx];
      if (node.solved != kUnsolved || !node.expanded) return;
      // Children are solved for the side to move at node (their mover).
      bool all_solved = true, any_draw = false;
      const Node* best_draw = nullptr;
      const Node* best_win = nullptr;
      const Node* least_bad = nullptr;
      for (uint32_t k = 0; k < node.num_children; ++k) {
        const Node& c = nodes_[node.first_child + k];
        if (c.solved == kWin && (!best_win || c.solved_margin > best_win->solved_margin)) best_win = &c;
        if (c.solved == kUnsolved) all_solved = false;
        if (c.solved == kDraw) {
          any_draw = true;
          if (!best_draw || c.solved_margin > best_draw->solved_margin) best_draw = &c;
        }
        if (c.solved == kLoss && (!least_bad || c.solved_margin > least_bad->solved_margin)) least_bad = &c;
      }
      if (best_win) {
        // The side to move wins (with unsolved siblings the margin is only a bound).
        mark_solved(idx, -1, -best_win->solved_margin);
      } else if (all_solved && any_draw) {
        mark_solved(idx, 0, -best_draw->solved_margin);
      } else if (all_solved && least_bad) {
        mark_solved(idx, 1, -least_bad->solved_margin);
      } else {
        return;
      }
    }
  }

  void add_dirichlet_noise(double alpha, double fraction) {
    Node& root = nodes_[root_];
    if (root.num_children == 0) return;
    std::gamma_distribution<double> gamma(alpha, 1.0);
    std::vector<double> noise(root.num_children);
    double total = 0;
    for (auto& x : noise) total += (x = gamma(rng_));
    if (total <= 0) return;
    for (uint32_t i = 0; i < root.num_children; ++i) {
      Node& c = nodes_[root.first_child + i];
      c.prior = float((1 - fraction) * c.prior + fraction * noise[i] / total);
    }
  }

  // Copies the subtree under the root into a fresh arena.
  void compact() {
    std::vector<Node> fresh;
    fresh.reserve(nodes_.size() / 2);
    fresh.push_back(nodes_[root_]);
    for (size_t read = 0; read < fresh.size(); ++read) {
      if (!fresh[read].expanded || fresh[read].num_children == 0) continue;
      const uint32_t old_first = fresh[read].first_child;
      fresh[read].first_child = uint32_t(fresh.size());
      for (uint32_t k = 0; k < fresh[read].num_children; ++k) fresh.push_back(nodes_[old_first + k]);
    }
    nodes_.swap(fresh);
    root_ = 0;
  }

  MctsConfig config_;
  std::mt19937_64 rng_;
  ExactSolverHook<Game> solver_;
  std::vector<Node> nodes_{Node{}};
  uint32_t root_ = 0;
  State root_state_{};
  double pending_noise_alpha_ = 0, pending_noise_fraction_ = 0;
  // The leaf being evaluated.
  std::vector<uint32_t> path_;
  std::vector<int> movers_;  // movers_[i]: who moved into path_[i]
  State leaf_state_{};
  std::vector<Action> leaf_actions_ = std::vector<Action>(size_t(Game::kMaxActions));
  int num_leaf_actions_ = 0;
  // Gumbel root state.
  int budget_ = 64;
  bool gumbel_ready_ = false;
  int phases_ = 1;
  std::vector<double> gumbel_;
  std::vector<uint32_t> candidates_, remaining_;
  std::vector<uint32_t> phase_target_;
};

}  // namespace mushroom
