// The learned alpha-beta evaluation's pipeline ([run] model = "eval"; the
// stages are the conv net's, run/run_loop.h):
//   actor       alpha-beta self-play (selfplay/eval_selfplay.h) with the
//               best evaluation so far, the hand evaluation before any,
//               every position labelled at evalplay.label_depth (and by the
//               teacher net, when evalplay.teacher names one)
//   learner     EvalTrainer (train/nnue/eval_trainer.h) on the window of newest
//               samples -> models/gen-NNNN.eval, optimizer state in
//               optimizer.pt, training lines as for the conv net
//   fit         with [probcut] enabled, the gatekeeper first fits
//               Multi-ProbCut for the candidate and the best so far
//               (run/fit_stage.h), and every match below plays each
//               evaluation with its fit, as the contest bot searches
//   gatekeeper  paired alpha-beta matches at evalnet.match_depth: the
//               candidate against the best so far (the hand evaluation
//               before any); evaluation against the hand evaluation, and
//               the fit to the results of held-out games (heldout/, played
//               once per run with the hand evaluation from a seed apart
//               from self-play's): the log loss of the candidate, of the
//               hand evaluation and of the material margin alone
#pragma once
#include <map>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "run/pipeline.h"

namespace mushroom::run {

Pipeline eval_pipeline(const RunConfig& config);

// The alphabeta agent's options for one side of the judge's matches: the
// evaluation file ("" the hand evaluation) at evalnet.match_depth, without
// the root solver, and with [probcut] enabled its fit (agents/probcut_fitting.h probcut_fit_path;
// the hand evaluation has none). Throws std::runtime_error naming a fit
// that does not exist.
std::map<std::string, std::string> judge_player_options(const RunConfig& config, const std::string& evaluation);

// The log loss of results (1 win, 0.5 draw, 0 loss) predicted by
// sigmoid(x / scale) with the scale that fits best (searched on a log grid
// and refined), and that scale.
struct ResultFit {
  double log_loss = 0, scale = 0;
};
ResultFit fit_results(const std::vector<double>& x, const std::vector<double>& results);

}  // namespace mushroom::run
