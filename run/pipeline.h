// What a run learns, named by [run] model, with everything about it that
// the run loop's stages ask for: the conv net of the run's game ("net",
// from its learning game's registration, run/learning_game.h) or the
// learned alpha-beta evaluation ("eval", run/eval_pipeline.h). The actor,
// learner, gatekeeper and run loop never ask which it is.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "run/learning_game.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "run/train_summary.h"
#include "selfplay/selfplay_runner.h"
#include "train/trainer.h"

namespace mushroom::run {

using StageLog = std::function<void(const std::string&)>;

struct Pipeline {
  std::string model_extension;  // of the candidates in models/
  std::string schema;           // of the shards in data/ (selfplay/sample.h)
  std::string bootstrap_name;   // what self-play uses before there is a model, for the log
  std::string bootstrap_id;     // the same in the shards' model_id ("bootstrap-<id>")
  // Plays the job (games, ids, out_dir and progress filled by the actor)
  // with a model file, "" for the bootstrap.
  std::function<selfplay::SelfplayProgress(selfplay::SelfplayJob& job, const std::string& model)> selfplay;
  // The learner stage: writes run.model(generation) unless it exists.
  std::function<train::TrainStats(const RunDir& run, int generation, const std::string& init_model, const StageLog& log)>
      learn;
  std::function<std::unique_ptr<GameJudge>(const RunDir& run, int threads)> make_judge;
  // Throws, naming the file and the problem, unless `model` is a usable
  // model of this pipeline (actors check a promoted model before using it).
  std::function<void(const std::string& model)> check_model;
};

// A registered pipeline: the [run] model value that names it, and how to
// make it for a config (it refers to config, which must outlive it).
struct PipelineEntry {
  std::string model;
  std::function<Pipeline(const RunConfig& config)> make;
};
// Every registered pipeline (run/pipelines.cpp).
const std::vector<PipelineEntry>& pipelines();
// Their [run] model values, in the registry's order: the config's choices.
std::vector<std::string> pipeline_models();

// The pipeline of a config; throws ConfigError when no pipeline is
// registered under its run.model.
Pipeline pipeline_of(const RunConfig& config);

}  // namespace mushroom::run
