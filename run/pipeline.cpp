#include "run/pipeline.h"

#include <filesystem>
#include <stdexcept>

#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

Pipeline pipeline_of(const RunConfig& config) {
  for (const PipelineEntry& entry : pipelines())
    if (entry.model == config.run.model) return entry.make(config);
  throw ConfigError("run.model = \"" + config.run.model + "\" names no registered pipeline");
}

train::TrainStats trained_stats_of(const RunDir& run, int g) {
  train::TrainStats stats;
  if (!fs::exists(run.train_metrics(g))) return stats;
  const std::vector<view::TrainLine> lines = view::read_train_lines(run.train_metrics(g).string());
  if (lines.empty()) return stats;
  stats.steps = lines.back().step;
  stats.samples_seen = lines.back().samples_seen;
  stats.learning_rate = lines.back().lr;
  stats.loss = lines.back().loss;
  stats.value = lines.back().value;
  stats.policy = lines.back().policy;
  return stats;
}

}  // namespace mushroom::run
