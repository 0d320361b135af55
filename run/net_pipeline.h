// The conv net's pipeline ([run] model = "net"), for whichever game the
// run's config names (its learning game's registration, run/learning_game.h):
//   actor       the game's self-play with the best net so far (the
//               bootstrap evaluator before there is one)
//   learner     trains the newest weights on the window of newest samples
//               (train/trainer.h) and writes the generation's candidate,
//               models/gen-NNNN.h5, with its training lines and the
//               optimizer's state; starts from generation g-1's candidate,
//               else the run's --init model, else random weights from the
//               config's seed; a candidate that exists already is kept
//   gatekeeper  the game's judge (gating and evaluation matches)
#pragma once
#include "run/pipeline.h"

namespace mushroom::run {

Pipeline net_pipeline(const RunConfig& config);

}  // namespace mushroom::run
