// A tiny game given as an explicit tree, for hand-checked search tests.
// Node 0 is the root; each node lists its children; leaves are terminal
// with a value for the side to move there. Players alternate.
#pragma once
#include <vector>

#include "search/evaluator.h"
#include "search/game.h"

namespace mushroom::testing {

struct TreeNode {
  std::vector<int> children;
  double terminal_value = 0;  // for the side to move at this (leaf) node
  double eval_value = 0;      // what TreeEvaluator says for the side to move
};

inline std::vector<TreeNode>& tree() {
  static std::vector<TreeNode> nodes;
  return nodes;
}

struct TreeGame {
  struct State {
    int node = 0;
    int player = 0;
  };
  using Action = int;  // the child node id
  static constexpr int kMaxActions = 16;
  static constexpr int kNumSymmetries = 1;
  static int legal_actions(const State& s, Action* out) {
    const auto& c = tree()[size_t(s.node)].children;
    for (size_t i = 0; i < c.size(); ++i) out[i] = c[i];
    return int(c.size());
  }
  static void apply(State& s, const Action& a) {
    s.node = a;
    s.player = 1 - s.player;
  }
  static bool is_terminal(const State& s) { return tree()[size_t(s.node)].children.empty(); }
  static int to_move(const State& s) { return s.player; }
  static double terminal_value(const State& s) { return tree()[size_t(s.node)].terminal_value; }
  static double terminal_margin(const State& s) { return 10 * terminal_value(s); }
  static uint64_t hash(const State& s) { return uint64_t(s.node) * 2 + uint64_t(s.player); }
  static int action_index(const Action& a) { return a; }
  static State transform(int, const State& s) { return s; }
  static Action transform(int, const Action& a) { return a; }
};
static_assert(SearchGame<TreeGame>);

// Uniform priors; the value is the node's eval_value; no margin.
class TreeEvaluator : public Evaluator<TreeGame> {
 public:
  int calls = 0;
  void evaluate(Span<const EvalRequest<TreeGame>> requests, Span<EvalResult> results) override {
    for (size_t i = 0; i < requests.size(); ++i) {
      ++calls;
      results[i].value = float(tree()[size_t(requests[i].state->node)].eval_value);
      results[i].margin = 0;
      results[i].priors.assign(size_t(requests[i].num_actions), 1.f / float(requests[i].num_actions));
    }
  }
};

}  // namespace mushroom::testing
