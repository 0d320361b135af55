// The learner stage: trains the newest weights on the window of newest
// samples and writes the generation's candidate, models/gen-NNNN.h5, with its
// training lines and the optimizer's state. A candidate that exists already
// is kept (the stage was finished before a kill).
#pragma once
#include <string>

#include "train/actor.h"
#include "train/trainer.h"

namespace mushroom::train {

// Starts from generation g-1's candidate, else init_model, else random
// weights from the config's seed. Returns zero steps when the candidate
// existed already.
TrainStats run_learner(const RunConfig& config, const RunDir& run, int generation, const std::string& init_model,
                       const StageLog& log);

// A candidate's training figures, read back from its training lines
// (metrics/train-gen-NNNN.jsonl): the last line's steps, samples seen,
// learning rate and losses; zero steps when there are none.
TrainStats trained_stats_of(const RunDir& run, int generation);

}  // namespace mushroom::train
