#include "run/train_summary.h"

#include <filesystem>
#include <string>
#include <vector>

#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {

// The summary is a training line (view/run_records.h, one JSON form for
// both) whose losses are the stage's means rather than one step's.
train::TrainStats stats_of(const view::TrainLine& line) {
  train::TrainStats stats;
  stats.steps = line.step;
  stats.samples_seen = line.samples_seen;
  stats.learning_rate = line.lr;
  stats.loss = line.loss;
  stats.policy = line.policy;
  stats.value = line.value;
  stats.score = line.score;
  stats.ownership = line.ownership;
  stats.policy_entropy = line.policy_entropy;
  return stats;
}

}  // namespace

void write_trained_stats(const RunDir& run, int g, const train::TrainStats& stats) {
  view::TrainLine line;
  line.generation = g;
  line.step = stats.steps;
  line.samples_seen = stats.samples_seen;
  line.lr = stats.learning_rate;
  line.loss = stats.loss;
  line.policy = stats.policy;
  line.value = stats.value;
  line.score = stats.score;
  line.ownership = stats.ownership;
  line.policy_entropy = stats.policy_entropy;
  write_file_atomic(run.train_summary(g).string(), view::to_json_line(line));
}

train::TrainStats trained_stats_of(const RunDir& run, int g) {
  std::vector<view::TrainLine> lines;
  if (fs::exists(run.train_metrics(g))) lines = view::read_train_lines(run.train_metrics(g).string());
  if (!fs::exists(run.train_summary(g))) return lines.empty() ? train::TrainStats{} : stats_of(lines.back());
  const std::string path = run.train_summary(g).string();
  const std::vector<view::TrainLine> summary = view::read_train_lines(path);
  if (summary.size() != 1)
    throw view::RecordError(path + ": a training summary is one line, not " + std::to_string(summary.size()));
  const view::TrainLine& s = summary[0];
  if (s.generation != g)
    throw view::RecordError(path + ": the summary of generation " + std::to_string(s.generation) + ", not " +
                            std::to_string(g));
  // Both are written before the candidate, so they tell of the same
  // training; a summary that disagrees is another training's.
  if (!lines.empty() && (lines.back().step != s.step || lines.back().samples_seen != s.samples_seen))
    throw view::RecordError(path + ": step " + std::to_string(s.step) + " with " + std::to_string(s.samples_seen) +
                            " samples seen, but " + run.train_metrics(g).string() + " ends at step " +
                            std::to_string(lines.back().step) + " with " +
                            std::to_string(lines.back().samples_seen) +
                            ": the summary of another training (remove it to record the last line's figures)");
  return stats_of(s);
}

}  // namespace mushroom::run
