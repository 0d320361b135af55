// The actor stage: self-play for one generation with a given model, into
// data/gen-NNNN/ of the run directory. It resumes from the shards already
// finished there, so a killed actor loses only the games in progress.
#pragma once
#include <functional>
#include <string>

#include "selfplay/selfplay_runner.h"
#include "train/run_config.h"
#include "train/run_dir.h"

namespace mushroom::train {

using StageLog = std::function<void(const std::string&)>;

struct ActorReport {
  int games_before = 0;               // finished in earlier sessions
  selfplay::SelfplayProgress played;  // what this call played
  int games() const { return games_before + played.games_done; }
};

// model: the model file to self-play with, "" for the bootstrap evaluator
// (uniform priors for BLOCKGAME).
ActorReport run_actor(const RunConfig& config, const RunDir& run, int generation, const std::string& model,
                      const StageLog& log);

}  // namespace mushroom::train
