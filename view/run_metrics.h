// The per-generation records and training-loss lines a run directory holds
// (metrics/gen-NNNN.json, metrics/train-gen-NNNN.jsonl), read for the plots
// and the dashboard. Absent fields read as NaN.
#pragma once
#include <string>
#include <vector>

namespace mushroom::view {

struct TrainPoint {
  int generation = 0;
  double samples_seen = 0, loss = 0, policy = 0, value = 0, score = 0, ownership = 0, policy_entropy = 0;
};

struct GenerationRecord {
  int generation = 0;
  bool promoted = false;
  double gate_score = 0;
  double eval_score = 0;   // vs greedy; NaN when not evaluated
  double eval_margin = 0;
  double selfplay_games_per_minute = 0;
  double nn_positions = 0, selfplay_seconds = 0;
  double train_seconds = 0;
  // Blockgame runs (graded by the exact solver): winning-move accuracies on
  // held-out positions and the value head's won/lost accuracy; NaN otherwise.
  double policy_accuracy = 0, mcts_accuracy = 0, value_accuracy = 0, random_accuracy = 0;
};

struct RunMetrics {
  std::vector<TrainPoint> training;           // oldest first
  std::vector<GenerationRecord> generations;  // by generation
  bool graded() const;  // a blockgame run: some generation has accuracies
};

RunMetrics read_run_metrics(const std::string& dir);

// The number after "key": in one of our flat JSON records; NaN when absent
// or not a number.
double json_number(const std::string& line, const std::string& key);

}  // namespace mushroom::view
