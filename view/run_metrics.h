// Everything a run directory has recorded so far (view/run_records.h), read
// together for the plots and the dashboard.
#pragma once
#include <string>
#include <vector>

#include "view/run_records.h"

namespace mushroom::view {

struct RunMetrics {
  std::vector<TrainLine> training;            // oldest first
  std::vector<GenerationRecord> generations;  // by generation
  bool graded() const;  // a blockgame run: some generation has accuracies
  bool fitted() const;  // a learned-evaluation run: some generation has a held-out fit
};

// Throws RecordError naming the first record file that does not parse.
RunMetrics read_run_metrics(const std::string& dir);

// The samples-seen axis in a readable unit: millions or thousands once the
// run has seen that many ("samples seen (millions)" with 4.302, 4.304, ...).
struct SamplesUnit {
  double divisor = 1;
  std::string suffix;  // "", " (thousands)" or " (millions)"
};
SamplesUnit samples_unit(const RunMetrics& run);

// The training loss terms a run's charts show (the dashboard's and
// run.png's): the total, then each of the conv net's terms (policy, value,
// score, ownership) that some line trains apart from the total. A learned
// evaluation's run trains one target, so it shows the total alone. None
// before the run has a training line.
struct LossTerm {
  const char* label;
  int tsv_column;  // its column in plots/training.tsv, from 1
  double TrainLine::*value;
};
std::vector<LossTerm> trained_loss_terms(const RunMetrics& run);

// Plot and table helpers: the value, or NaN where there is none.
double eval_score_or_nan(const GenerationRecord& r);
// NaN when the generation played no gate game (its gate never ran).
double gate_score_or_nan(const GenerationRecord& r);
// The grade's accuracies in the order mcts, policy, value, random (NaN when
// the generation was not graded).
struct Accuracies {
  double mcts, policy, value, random;
};
Accuracies accuracies_or_nan(const GenerationRecord& r);
// The fit's log losses: learned, hand, material (NaN when not measured).
struct LogLosses {
  double learned, hand, material;
};
LogLosses log_losses_or_nan(const GenerationRecord& r);

}  // namespace mushroom::view
