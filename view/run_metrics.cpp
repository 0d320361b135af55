#include "view/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace mushroom::view {

namespace fs = std::filesystem;

RunMetrics read_run_metrics(const std::string& dir) {
  const fs::path metrics = fs::path(dir) / "metrics";
  std::vector<fs::path> train_files, gen_files;
  if (fs::exists(metrics))
    for (const auto& e : fs::directory_iterator(metrics)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("train-gen-", 0) == 0 && e.path().extension() == ".jsonl") train_files.push_back(e.path());
      if (name.rfind("gen-", 0) == 0 && e.path().extension() == ".json") gen_files.push_back(e.path());
    }
  std::sort(train_files.begin(), train_files.end());
  std::sort(gen_files.begin(), gen_files.end());
  RunMetrics out;
  for (const auto& f : train_files)
    for (const TrainLine& line : read_train_lines(f.string())) out.training.push_back(line);
  for (const auto& f : gen_files) out.generations.push_back(read_generation_record(f.string()));
  return out;
}

bool RunMetrics::graded() const {
  return std::any_of(generations.begin(), generations.end(), [](const GenerationRecord& r) { return r.grade.has_value(); });
}

bool RunMetrics::fitted() const {
  return std::any_of(generations.begin(), generations.end(), [](const GenerationRecord& r) { return r.fit.has_value(); });
}

LogLosses log_losses_or_nan(const GenerationRecord& r) {
  if (!r.fit) return {std::nan(""), std::nan(""), std::nan("")};
  return {r.fit->learned_log_loss, r.fit->hand_log_loss, r.fit->material_log_loss};
}

double eval_score_or_nan(const GenerationRecord& r) { return r.eval_score.value_or(std::nan("")); }

double gate_score_or_nan(const GenerationRecord& r) { return r.gate_games > 0 ? r.gate_score : std::nan(""); }

SamplesUnit samples_unit(const RunMetrics& run) {
  int64_t most = 0;
  for (const TrainLine& p : run.training) most = std::max(most, p.samples_seen);
  if (most >= 1000000) return {1e6, " (millions)"};
  if (most >= 10000) return {1e3, " (thousands)"};
  return {};
}

Accuracies accuracies_or_nan(const GenerationRecord& r) {
  if (!r.grade) return {std::nan(""), std::nan(""), std::nan(""), std::nan("")};
  return {r.grade->mcts_accuracy, r.grade->policy_accuracy, r.grade->value_accuracy, r.grade->random_accuracy};
}

}  // namespace mushroom::view
