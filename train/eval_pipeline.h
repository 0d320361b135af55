// The learned alpha-beta evaluation's pipeline ([run] model = "eval"; the
// stages are the conv net's, train/run_loop.h):
//   actor       alpha-beta self-play (selfplay/eval_selfplay.h) with the
//               best evaluation so far, the hand evaluation before any,
//               every position labelled at evalplay.label_depth (and by the
//               teacher net, when evalplay.teacher names one)
//   learner     EvalTrainer (train/eval_trainer.h) on the window of newest
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

#include "mushroom/learned_eval_model.h"
#include "train/pipeline.h"

namespace mushroom::train {

Pipeline eval_pipeline(const RunConfig& config);

// One training of the evaluation from `start` on the newest
// train.window_samples positions of `shards` ([evalnet] and [train]): the
// learner's work, and `mushroom train`'s for run.model = "eval". Steps:
// steps_override when positive, else evalnet.epochs passes over the kept
// positions (at most train.steps), else train.steps.
// The optimizer's state is read from and saved to optimizer_path ("": none).
struct EvalTraining {
  LearnedEvalModel model;
  TrainStats stats;
  std::string metrics;  // the training lines (view::TrainLine JSON)
};
EvalTraining train_eval(const RunConfig& config, const std::vector<std::string>& shards, const LearnedEvalModel& start,
                        int generation, int64_t samples_seen, const std::string& optimizer_path, const StageLog& log,
                        int steps_override = 0);

// The log loss of results (1 win, 0.5 draw, 0 loss) predicted by
// sigmoid(x / scale) with the scale that fits best (searched on a log grid
// and refined), and that scale.
struct ResultFit {
  double log_loss = 0, scale = 0;
};
ResultFit fit_results(const std::vector<double>& x, const std::vector<double>& results);

}  // namespace mushroom::train
