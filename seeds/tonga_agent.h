// PseudoTonga behind the search interface (search/game.h), and our agent:
// the engine's MCTS with random-fill playouts (several per leaf), scored by
// the final isle-square margin.
#pragma once
#include <memory>
#include <string>

#include "seeds/pseudo_tonga.h"
#include "search/evaluator.h"
#include "search/game.h"
#include "search/mcts.h"
#include "util/rng.h"

namespace mushroom::tonga {

struct TongaState {
  const Geometry* geometry = nullptr;
  Board board;
};

struct TongaGame {
  using State = TongaState;
  using Action = int16_t;  // a cell
  static constexpr int kMaxActions = kMaxCells;
  static constexpr int kNumSymmetries = 1;
  static int legal_actions(const State& s, Action* out);
  static void apply(State& s, const Action& a) { s.board.place(a); }
  static bool is_terminal(const State& s) { return s.board.full(*s.geometry); }
  static int to_move(const State& s) { return s.board.to_move; }
  static double terminal_margin(const State& s);
  static double terminal_value(const State& s) {
    const double m = terminal_margin(s);
    return (m > 0) - (m < 0);
  }
  static uint64_t hash(const State& s);
  static int action_index(const Action& a) { return a; }
  static State transform(int, const State& s) { return s; }
  static Action transform(int, const Action& a) { return a; }
};
static_assert(SearchGame<TongaGame>);

// Uniform priors; value and margin from `playouts` random fills of the board.
class TongaPlayoutEvaluator : public Evaluator<TongaGame> {
 public:
  TongaPlayoutEvaluator(int playouts, uint64_t seed) : playouts_(playouts), rng_(seed) {}
  void evaluate(Span<const EvalRequest<TongaGame>> requests, Span<EvalResult> results) override;

 private:
  int playouts_;
  Rng rng_;
};

struct TongaAgentConfig {
  // exploit (default): for each of our most promising squares, the server's
  // exact reply (its strategy is known) and then our best follow-up, scored
  // with the area^2 * perimeter evaluation from our side; mcts: MCTS with
  // random-fill playouts; minimax: the server's own 3-ply search, played for
  // our colour.
  std::string kind = "exploit";
  int candidates = 48;  // exploit: squares examined per move (fewer when time runs short)
  bool deep = true;     // exploit: score the position after the server's reply by our own 3-ply search (false: our best 1-ply gain)
  int playouts_per_leaf = 8;
  double time_fraction = 0.9;  // of the game's budget the agent plans to use
  size_t max_nodes = 400'000;  // keeps the tree well inside the 64 MB limit
  uint64_t seed = 1;
};

class TongaAgent {
 public:
  TongaAgent(const Geometry& g, Color me, TongaAgentConfig config = {});
  ~TongaAgent();
  // Picks a move for `board` with `remaining_ms` of this game's budget left
  // (CPU time of the calling thread).
  int choose(const Board& board, double remaining_ms);
  int last_simulations() const { return last_sims_; }

 private:
  int choose_exploit(const Board& board, double budget_ms);

 public:

 private:
  const Geometry& g_;
  Color me_;
  TongaAgentConfig config_;
  Mcts<TongaGame> mcts_;
  std::unique_ptr<class TongaServer> minimax_, server_model_;
  TongaPlayoutEvaluator evaluator_;
  int last_sims_ = 0;
};

}  // namespace mushroom::tonga
