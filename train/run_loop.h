// `mushroom run`: the whole loop, generation after generation:
//   1. self-play with the best model so far (the bootstrap evaluator before
//      there is one) into data/gen-NNNN/
//   2. train the latest weights on the window of newest samples ->
//      models/gen-NNNN.h5
//   3. gate the candidate against the best (paired games; before any model,
//      against the no-net mcts agent at the same simulations), promote it if
//      it scores above gate.promote_score, and every eval.every generations
//      play it against greedy -> metrics/gen-NNNN.json
//   4. redraw plots/*.png and plots/dashboard data.
// Every phase leaves its result under its final name only when complete
// (temp file + rename), and each phase is skipped when its result exists, so
// the same command resumes a killed run where it stopped. The best model is
// derived from the generation records, never stored separately.
#pragma once
#include <functional>
#include <string>

namespace mushroom::train {

struct RunOptions {
  std::string config_path;
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

// The best model of a run directory: the newest promoted candidate, else
// `fallback` (the run's initial model, or "" for none).
std::string best_model_of_run(const std::string& dir, const std::string& fallback = "");

}  // namespace mushroom::train
