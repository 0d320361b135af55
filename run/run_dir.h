// The layout of a run directory, which is the only thing the run loop's
// stages share: each stage reads its inputs from it and leaves its outputs
// in it under their final names only when complete (temp file + rename).
//   config.toml                      the config the run was last started with
//   data/gen-NNNN/shard-*.h5         self-play shards (actor)
//   data/gen-NNNN/games/*.log        sample game logs (actor)
//   models/gen-NNNN.h5               candidates (learner): conv nets; a learned
//                                    evaluation's are gen-NNNN.eval
//   models/init.h5, init.eval        the run's copy of its --init model, which
//                                    stands for it in the run (run_init_model)
//   models/gen-NNNN.probcut,         a learned evaluation's Multi-ProbCut fits
//   models/init.probcut              (gatekeeper, [probcut]: run/fit_stage.h)
//   heldout/                         a learned evaluation's held-out games (gatekeeper)
//   optimizer.pt                     the optimizer's state (learner), of the
//                                    newest candidate's training
//   optimizer-training.pt            its working copy while a learner trains
//                                    (begin_optimizer_state)
//   metrics/train-gen-NNNN.jsonl     training lines (learner)
//   metrics/train-gen-NNNN.summary.json  the training stage's figures, one
//                                    training line of its means, written
//                                    before the candidate (run/train_summary.h)
//   metrics/gen-NNNN.json            the generation's record; its "promoted"
//                                    field is the promotion (gatekeeper)
//   models/promoted.txt              the promoted model's file name, one line
//                                    (gatekeeper): what actors self-play with
//   stop                             when present, actors and the waiting
//                                    learner and gatekeeper stop (run/roles.h)
//   plots/, dashboard.html           pictures for people
#pragma once
#include <filesystem>
#include <string>

namespace mushroom::run {

// "gen-0007" for generation 7.
std::string generation_name(int generation);

struct RunDir {
  std::filesystem::path root;
  std::string model_extension = ".h5";  // of the candidates (the pipeline's, run/pipeline.h)

  std::filesystem::path data() const { return root / "data"; }
  std::filesystem::path data(int g) const { return data() / generation_name(g); }
  std::filesystem::path model(int g) const { return root / "models" / (generation_name(g) + model_extension); }
  std::filesystem::path record(int g) const { return root / "metrics" / (generation_name(g) + ".json"); }
  std::filesystem::path train_metrics(int g) const {
    return root / "metrics" / ("train-" + generation_name(g) + ".jsonl");
  }
  // The training stage's figures (run/train_summary.h), for a resume to record.
  std::filesystem::path train_summary(int g) const {
    return root / "metrics" / ("train-" + generation_name(g) + ".summary.json");
  }
  std::filesystem::path optimizer() const { return root / "optimizer.pt"; }
  std::filesystem::path optimizer_in_training() const { return root / "optimizer-training.pt"; }
  std::filesystem::path config_copy() const { return root / "config.toml"; }
  std::filesystem::path promoted_pointer() const { return root / "models" / "promoted.txt"; }
  std::filesystem::path stop_file() const { return root / "stop"; }

  // Creates the folders and, with remove_temp_files, removes temp files a
  // killed stage left behind. Processes that share the directory with others
  // still writing (run/roles.h) keep them: a temp file may be in flight.
  void prepare(bool remove_temp_files = true) const;
};

// The best model of a run directory: the newest promoted candidate, else
// `fallback` (the run's initial model, or "" for none). The generation
// records decide; models/promoted.txt mirrors them for actors.
std::string best_model_of_run(const std::string& dir, const std::string& fallback = "",
                              const std::string& model_extension = ".h5");

// The run's copy of its --init model (models/init + the pipeline's
// extension), made on first use, so that the run, its promoted pointer and
// its export find the model inside the run directory whatever happens to the
// file it was started from. "" for no init model. Throws
// std::invalid_argument naming both files when the run already holds
// another init model (it was started from another file, or that file
// changed since).
std::string run_init_model(const RunDir& run, const std::string& init_model);

// The optimizer's state goes with the candidate it trained. A learner
// trains with a working copy of optimizer.pt, which the training loads and
// saves, and makes it optimizer.pt only once the candidate is written: a
// kill between the state's save and the candidate's write then cannot
// start the training again from the finished training's moments (issue
// 101: the next attempt trained from them, and made another candidate than
// an unkilled run makes).
//
// begin_optimizer_state, before a candidate's training: drops a killed
// training's working copy, copies optimizer.pt into a new one (with
// `carry`; without, the training starts fresh moments) and returns its
// path, for the trainer to load and save. finish_optimizer_state, once the
// candidate is written (or when a resumed learner finds it written): the
// working copy becomes optimizer.pt; nothing when there is none.
std::string begin_optimizer_state(const RunDir& run, bool carry = true);
void finish_optimizer_state(const RunDir& run);

// Points models/promoted.txt at `model` (a path; its file name is stored),
// atomically. An empty model ("" before any promotion) is not written.
void write_promoted_pointer(const RunDir& run, const std::string& model);
// The model models/promoted.txt names, as a path; "" when there is none.
// Throws naming the file when it holds anything but one file name.
std::string read_promoted_pointer(const RunDir& run);

}  // namespace mushroom::run
