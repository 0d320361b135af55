// The actor stage: self-play for one generation with a given model, into
// data/gen-NNNN/ of the run directory. It resumes from the shards already
// finished there, so a killed actor loses only the games in progress.
#pragma once
#include <functional>
#include <string>

#include "run/pipeline.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "selfplay/selfplay_runner.h"

namespace mushroom::run {

struct ActorReport {
  int games_before = 0;               // finished in earlier sessions
  int64_t samples_before = 0;         // their samples
  selfplay::SelfplayProgress played;  // what this call played
  int games() const { return games_before + played.games_done; }
  int64_t samples() const { return samples_before + played.samples; }
};

// model: the model file to self-play with, "" for the pipeline's bootstrap
// (the material evaluator, uniform priors, the hand evaluation).
ActorReport run_actor(const RunConfig& config, const Pipeline& pipeline, const RunDir& run, int generation,
                      const std::string& model, const StageLog& log);

}  // namespace mushroom::run
