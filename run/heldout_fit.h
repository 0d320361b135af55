// How well a learned evaluation predicts held-out positions: the log loss of
// their games' results (beside the hand evaluation's and the material
// margin's), the training target's loss against their search scores, and
// the mean cells from the search scores and from the final margins. The
// gatekeeper measures every candidate so (run/eval_pipeline.h), and
// `mushroom train --heldout` measures what it trained, so that variants
// trained on the same positions compare on the same held-out ones.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "train/nnue/eval_window.h"
#include "view/run_records.h"

namespace mushroom::run {

// Every position of the shards under `dir` (no window limit), each shard
// checked as training checks it; `warn` gets what is skipped.
std::vector<train::EvalRecord> read_heldout_positions(const std::string& dir, int threads,
                                                      const std::function<void(const std::string&)>& warn);

// The candidate's fit to `records`, evaluated by the integer runtime as the
// search evaluates; `scale` is [evalnet] scale, the probability target's.
view::FitRecord heldout_fit(const std::vector<train::EvalRecord>& records, const nnue::Network& candidate,
                            double scale);

// One line: "held out: N positions; search-score loss X (hand Y); ...".
// (The fit as JSON: view::to_json.)
std::string describe_fit(const view::FitRecord& fit);

}  // namespace mushroom::run
