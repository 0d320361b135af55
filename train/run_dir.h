// The layout of a run directory, which is the only thing the run loop's
// stages share: each stage reads its inputs from it and leaves its outputs
// in it under their final names only when complete (temp file + rename).
//   config.toml                      the config the run was last started with
//   data/gen-NNNN/shard-*.h5         self-play shards (actor)
//   data/gen-NNNN/games/*.log        sample game logs (actor)
//   models/gen-NNNN.h5               candidates (learner): conv nets; a learned
//                                    evaluation's are gen-NNNN.eval
//   heldout/                         a learned evaluation's held-out games (gatekeeper)
//   optimizer.pt                     the optimizer's state (learner)
//   metrics/train-gen-NNNN.jsonl     training lines (learner)
//   metrics/gen-NNNN.json            the generation's record; its "promoted"
//                                    field is the promotion (gatekeeper)
//   plots/, dashboard.html           pictures for people
#pragma once
#include <filesystem>
#include <string>

namespace mushroom::train {

// "gen-0007" for generation 7.
std::string generation_name(int generation);

struct RunDir {
  std::filesystem::path root;
  std::string model_extension = ".h5";  // of the candidates (the pipeline's, train/pipeline.h)

  std::filesystem::path data() const { return root / "data"; }
  std::filesystem::path data(int g) const { return data() / generation_name(g); }
  std::filesystem::path model(int g) const { return root / "models" / (generation_name(g) + model_extension); }
  std::filesystem::path record(int g) const { return root / "metrics" / (generation_name(g) + ".json"); }
  std::filesystem::path train_metrics(int g) const {
    return root / "metrics" / ("train-" + generation_name(g) + ".jsonl");
  }
  std::filesystem::path optimizer() const { return root / "optimizer.pt"; }
  std::filesystem::path config_copy() const { return root / "config.toml"; }

  // Creates the folders and removes temp files a killed stage left behind.
  void prepare() const;
};

// The best model of a run directory: the newest promoted candidate, else
// `fallback` (the run's initial model, or "" for none).
std::string best_model_of_run(const std::string& dir, const std::string& fallback = "",
                              const std::string& model_extension = ".h5");

}  // namespace mushroom::train
