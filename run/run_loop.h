// `mushroom run`: the whole loop, generation after generation, its three
// stages in turn, meeting only through the run directory (run/run_dir.h):
//   1. actor (run/actor.h): self-play with the best model so far (the
//      bootstrap evaluator before there is one) into data/gen-NNNN/
//   2. learner (run/net_pipeline.h): train the latest weights on the window of
//      newest samples -> models/gen-NNNN.h5
//   (a learned evaluation's fit stage, run/fit_stage.h: with [probcut] the
//   gatekeeper fits the candidate, and the --init model once, first)
//   3. gatekeeper (run/gatekeeper.h): gate the candidate against the best
//      (paired games; before any model, against the no-net mcts agent at the
//      same simulations), promote it if it scores above gate.promote_score,
//      and every eval.every generations play it against greedy
// then the generation's record (metrics/gen-NNNN.json, view/run_records.h),
// the plots and the dashboard. Each stage reports to the progress reporter
// (util/progress.h), which says where the run is and how long it and the
// whole run have left, from the lengths of the stages done (on a resume,
// those the records kept); progress.json holds the same for the dashboard
// and for programs (view/run_progress.h). Every stage leaves its result under its final
// name only when complete (temp file + rename), and each is skipped when its
// result exists, so the same command resumes a killed run where it stopped.
// The best model is derived from the generation records; models/promoted.txt
// mirrors it for actors running apart (run/roles.h).
#pragma once
#include <functional>
#include <string>

#include <optional>
#include <vector>

#include "run/run_dir.h"  // best_model_of_run
#include "view/run_records.h"

namespace mushroom::train {
struct TrainStats;
}  // namespace mushroom::train

namespace mushroom::run {

struct RunOptions {
  std::string config_path;
  std::vector<std::string> overrides;  // `--set section.key=value` (run/run_config.h)
  std::string dir;
  int generations = 0;  // 0: the config's run.generations
  int threads = 2;      // for gating and evaluation matches
  // A model to start from: generation 1 self-plays with it, trains from its
  // weights and gates against it (instead of the bootstrap evaluator and
  // random weights). Its architecture must match the config's [net].
  std::string init_model;
  std::function<void(const std::string&)> log;
};

void run_training_loop(const RunOptions& options);

struct ActorReport;
struct GateReport;
// The end of a generation, for the run loop and the gatekeeper role
// (run/roles.h): writes its record (metrics/gen-NNNN.json, whose presence
// marks the generation as finished), points models/promoted.txt at the best
// model, and redraws the plots and the dashboard. The record names this
// build and the config's hash.
// stage_seconds: the stages' lengths as the progress reporter timed them
// (util/progress.h), for a resumed run's estimate; empty when not timed.
void record_generation(const RunDir& run, int generation, const ActorReport& actor, const train::TrainStats& trained,
                       const GateReport& gate, const std::optional<view::LadderRecord>& ladder,
                       const std::string& init_model, const std::string& config_hash,
                       const std::function<void(const std::string&)>& log,
                       const std::vector<std::pair<std::string, double>>& stage_seconds = {});

}  // namespace mushroom::run
