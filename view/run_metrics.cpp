#include "view/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>

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

std::vector<LossTerm> trained_loss_terms(const RunMetrics& run) {
  static const LossTerm kTerms[] = {{"total", 2, &TrainLine::loss},
                                    {"policy", 3, &TrainLine::policy},
                                    {"value", 4, &TrainLine::value},
                                    {"score", 5, &TrainLine::score},
                                    {"ownership", 6, &TrainLine::ownership}};
  std::vector<LossTerm> out;
  if (run.training.empty()) return out;
  out.push_back(kTerms[0]);
  for (size_t t = 1; t < std::size(kTerms); ++t) {
    // A term never trained is all zero (an evaluation run's policy); one that
    // is the total on every line (an evaluation run's value) adds nothing.
    bool trained = false, apart = false;
    for (const TrainLine& p : run.training) {
      const double v = p.*kTerms[t].value;
      trained = trained || (v != 0 && !std::isnan(v));
      apart = apart || v != p.loss;
    }
    if (trained && apart) out.push_back(kTerms[t]);
  }
  return out;
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
