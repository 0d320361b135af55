// How a position of the learned evaluation's data gets its label: the one
// place that runs the label search, for self-play (eval_selfplay.cpp) and
// for the offline relabelling pass (relabel.h).
//
// The label is an alpha-beta search's score at [evalplay] label_depth (or
// within label_nodes). label_search picks the search: "plain" (no
// quiescence, one-ply reductions: what every label was made with before
// issue 71) or "playing" (the shipped search's reductions and quiescence,
// alphabeta/playing_search.h). With label_parity_mean the label is the
// mean of the searches at label_depth and label_depth + 1, so that neither
// parity's bias (the last mover's gain) is learned alone; the deeper search
// reuses the shallower one's table. With label_probcut the playing search
// also prunes with Multi-ProbCut (alphabeta/probcut.h), with the fit of the
// evaluation that labels, as the contest bot searches (issue 84); a fit
// made with another evaluation is refused. Its shallow searches are nodes
// of the label's search (alpha-beta counts them), so search_nodes stays the
// label's whole cost. Once few enough mushrooms are left
// (exact_mushrooms), the endgame solver is tried first and a proven
// position gets its exact final margin instead.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "mushroom/move.h"
#include "mushroom/position.h"
#include "nnue/network.h"
#include "selfplay/sample.h"

namespace mushroom {
class AlphaBeta;
class EndgameSolver;
class ProbCutFit;
namespace nnue {
class Evaluator;
}
}  // namespace mushroom

namespace mushroom::selfplay {

struct LabelConfig {
  int depth = 4;                       // label_depth
  int64_t nodes = 0;                   // label_nodes (0: the depth alone bounds it)
  std::string search = "plain";        // label_search: "plain" or "playing"
  bool parity_mean = false;            // label_parity_mean
  bool probcut = false;                // label_probcut: the playing search with its evaluation's fit
  int exact_mushrooms = 0;             // at or below, the endgame solver first (0: never)
  int64_t exact_nodes = 2'000'000;     // node budget of each exact solve
  // focus_depth: the depth at focus_min..focus_max mushrooms left, where
  // games between strong bots are decided (0: depth everywhere).
  int focus_depth = 0;
  int focus_min = 95, focus_max = 130;

  // Whether a position with this many mushrooms left is in the focus band
  // (focus_depth set, both ends in it).
  bool in_focus_band(int mushrooms_left) const {
    return focus_depth > 0 && mushrooms_left >= focus_min && mushrooms_left <= focus_max;
  }
  // The label search's depth at a position with this many mushrooms left.
  int depth_at(int mushrooms_left) const { return in_focus_band(mushrooms_left) ? focus_depth : depth; }
};

struct Label {
  EvalLabels labels;           // search_score and exact set; the rest left at their defaults
  Move best = Move::pass();    // the move the label's search (or proof) chose
  uint64_t search_nodes = 0;   // alpha-beta nodes (0 when proven)
  bool tried_exact = false;    // the solver was tried (proven or not)
};

// Throws std::invalid_argument naming the first bad setting (a search
// name other than "plain" or "playing", a depth or focus depth outside
// [1, 12], an empty focus band, ProbCut with the plain search, whose
// reductions the fits were not made with);
// the labeller checks its settings so, and a job can before any work.
void check_label_config(const LabelConfig& config);

// Throws std::invalid_argument unless the fit goes with the settings and
// the evaluation: label_probcut needs a fit, a fit needs label_probcut,
// and the fit must have been made with `evaluation` (null: the hand
// evaluation), checked by its `evaluation` line (check_probcut_evaluation;
// `source` names the fit in the message).
void check_label_fit(const LabelConfig& config, const nnue::Network* evaluation, const ProbCutFit* fit,
                     const std::string& source);

class Labeller {
 public:
  // evaluation: the label search's static evaluation (null: the hand
  // one); fit: its Multi-ProbCut fit, given exactly when config.probcut
  // is set. Both must outlive the labeller. Throws as check_label_config
  // and check_label_fit.
  Labeller(const LabelConfig& config, const nnue::Network* evaluation, const ProbCutFit* fit = nullptr);
  ~Labeller();

  // keep_proof: pos follows a position this labeller proved, so the
  // solver's table is kept and the proof goes on (self-play's perfect
  // endgame); otherwise each solve starts from an empty table.
  Label label(const Position& pos, bool keep_proof = false);
  // Only the endgame solver (where exact_mushrooms allows): the proven
  // label, or nothing.
  std::optional<Label> prove(const Position& pos, bool keep_proof = false);

  const LabelConfig& config() const { return config_; }

 private:
  // Whether the solver is tried on pos (exact_mushrooms, or a proof going on).
  bool tries_exact(const Position& pos, bool keep_proof) const;

  LabelConfig config_;
  std::unique_ptr<nnue::Evaluator> evaluator_;
  std::unique_ptr<AlphaBeta> search_;
  std::unique_ptr<EndgameSolver> solver_;
};

// The parity mean of two scores: their mean, rounded half away from zero
// so that it is the same for either side.
inline int parity_mean(int a, int b) {
  const int sum = a + b;
  return sum >= 0 ? (sum + 1) / 2 : -((-sum + 1) / 2);
}

// A short name of the settings, for logs and shard attributes:
// "playing depth 5", "plain depth 5+6 mean", "playing depth 5 with
// ProbCut", "playing depth 5 (7 at 95-130 left)", "... exact <= 110".
std::string describe(const LabelConfig& config);

}  // namespace mushroom::selfplay
