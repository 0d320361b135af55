// The learned evaluation's fit stage ([probcut]): each evaluation the run
// gates gets its own Multi-ProbCut fit (agents/probcut_fitting.h), so that
// the gate, the evaluation match and the ladder play the search that ships
// (the contest bot searches with its evaluation's fit). The gatekeeper
// makes the fits, before gating: it is the role that needs them, and the
// fit is CPU work like its matches (the learner may hold a GPU).
//   models/gen-NNNN.probcut   the candidate's fit
//   models/init.probcut       the --init model's (copied from beside it,
//                             X.probcut next to X.bin, or fitted once)
// A fit is written atomically and its presence marks it as made; it is a
// deterministic function of its evaluation and the settings, so a run
// killed in the middle makes the same fit again. A fit made with another
// evaluation (its `evaluation` line is that file's hash) is refused by name
// before any work: a stale gen-0001.probcut beside a retrained
// gen-0001.eval, say. With [evalplay] label_probcut, self-play labels with
// the best evaluation's fit (fit_selfplay_player), so the fits are there
// before the self-play that needs them, not only before the gate.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "run/run_dir.h"
#include "util/settings.h"

namespace mushroom {
struct ProbCutFitJob;
}  // namespace mushroom

namespace mushroom::run {

// [probcut]: the fit's settings (`mushroom probcut-fit`'s, at the run's clock).
struct ProbCutStageConfig {
  bool enabled = false;  // off: no fits, the matches search without ProbCut
  int games = 200;
  int play_depth = 3;
  int random_plies = 8;
  double sample_rate = 0.25;
  int max_depth = 9;
  int64_t nodes = 4'000'000;
  int exact_max_left = 0;
  int64_t exact_nodes = 2'000'000;
  int exact_shallow = 4;
  int threads = 2;
  int64_t seed = 1;
};
const SettingsTable<ProbCutStageConfig>& probcut_stage_settings();

// The fit job of these settings for an evaluation file; throws
// std::invalid_argument naming a setting the fit refuses
// (check_probcut_fit_job: e.g. exact_shallow above max_depth).
ProbCutFitJob probcut_fit_job(const ProbCutStageConfig& config, const std::string& evaluation);

// Throws std::invalid_argument, naming the fit, the evaluation and both
// hashes, unless `fit` was made with `evaluation`.
void check_fit_of(const std::string& evaluation, const std::string& fit);

// The fit stage for one evaluation: when its fit exists, checks that it
// was made with it; else fits it (log: the progress) and writes the fit.
// Returns the fit's path.
std::string fit_evaluation(const ProbCutStageConfig& config, const std::string& evaluation,
                           const std::function<void(const std::string&)>& log);

// The fit stage before generation `generation`'s gate, when [probcut] is
// enabled: the candidate's fit and the best so far's (`best`, "" for the
// hand evaluation, which has none), made or checked.
void fit_gate_players(const ProbCutStageConfig& config, const RunDir& run, int generation, const std::string& best,
                      const std::function<void(const std::string&)>& log);

// The fit that self-play by `best` (the best evaluation so far, "" for the
// hand evaluation) labels with, when label_probcut ([evalplay]) is on:
// made or checked (fit_evaluation) before the self-play starts. A promoted
// candidate's was made before its gate; the --init model's, when not
// adopted from beside it, is made here, since the gate would make it only
// after generation 1's self-play. The hand evaluation has none: its
// self-play labels without ProbCut (said in the log), as the run's matches
// play it. Nothing when label_probcut is off.
void fit_selfplay_player(const ProbCutStageConfig& config, bool label_probcut, const std::string& best,
                         const std::function<void(const std::string&)>& log);

// The --init model's fit when the run has none yet: the fit beside it
// (X.probcut next to X.bin), checked and copied to the run's copy's fit
// (run_init_model), else nothing (fit_evaluation then fits it).
void adopt_init_fit(const std::string& init_model, const std::string& run_copy,
                    const std::function<void(const std::string&)>& log);

}  // namespace mushroom::run
