// The learned alpha-beta evaluation's pipeline ([run] model = "eval"; the
// stages are the conv net's, run/run_loop.h):
//   actor       alpha-beta self-play (selfplay/eval_selfplay.h) with the
//               best evaluation so far, the hand evaluation before any,
//               every position labelled at evalplay.label_depth (and by the
//               teacher net, when evalplay.teacher names one)
//   learner     EvalTrainer (train/nnue/eval_trainer.h) on the window of newest
//               samples -> models/gen-NNNN.eval, optimizer state in
//               optimizer.pt, training lines as for the conv net
//   gatekeeper  paired alpha-beta matches at evalnet.match_depth: the
//               candidate against the best so far (the hand evaluation
//               before any); evaluation against the hand evaluation, and
//               the fit to the results of held-out games (heldout/, played
//               once per run with the hand evaluation from a seed apart
//               from self-play's): the log loss of the candidate, of the
//               hand evaluation and of the material margin alone
#pragma once
#include <string>
#include <vector>

#include "nnue/network.h"
#include "run/pipeline.h"

namespace mushroom::run {

Pipeline eval_pipeline(const RunConfig& config);

// The log loss of results (1 win, 0.5 draw, 0 loss) predicted by
// sigmoid(x / scale) with the scale that fits best (searched on a log grid
// and refined), and that scale.
struct ResultFit {
  double log_loss = 0, scale = 0;
};
ResultFit fit_results(const std::vector<double>& x, const std::vector<double>& results);

}  // namespace mushroom::run
