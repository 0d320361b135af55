#include "run/train_summary.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {
// The summary's fields, in the order they are written. Not the seconds: a
// record's train_seconds is the session's own (0 after a resume), and
// without them the summary is the same bytes in every run of the same seeds.
constexpr const char* kSummaryNumbers[] = {"learning_rate", "loss",      "policy",        "value",
                                           "score",         "ownership", "policy_entropy"};

double& summary_number(train::TrainStats& stats, const std::string& key) {
  if (key == "learning_rate") return stats.learning_rate;
  if (key == "loss") return stats.loss;
  if (key == "policy") return stats.policy;
  if (key == "value") return stats.value;
  if (key == "score") return stats.score;
  if (key == "ownership") return stats.ownership;
  return stats.policy_entropy;
}

train::TrainStats read_trained_stats(const fs::path& path, int g) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error(path.string() + ": cannot read the training summary");
  const auto refuse = [&](const std::string& why) {
    return std::runtime_error(path.string() + ": not a training summary: " + why +
                              " (remove it with the candidate beside it to train the generation again)");
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw refuse(std::string("malformed JSON (") + e.what() + ")");
  }
  if (!j.is_object()) throw refuse("not a JSON object");
  const auto integer = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_number_integer()) throw refuse(std::string("no integer \"") + key + "\"");
    return j[key].get<int64_t>();
  };
  if (integer("generation") != g)
    throw refuse("it is generation " + std::to_string(integer("generation")) + "'s, not " + std::to_string(g) + "'s");
  const int64_t steps = integer("steps");
  if (steps < 0 || steps > std::numeric_limits<int>::max()) throw refuse("steps out of range");
  train::TrainStats stats;
  stats.steps = int(steps);
  stats.samples_seen = integer("samples_seen");
  if (stats.samples_seen < 0) throw refuse("a negative samples_seen");
  for (const char* key : kSummaryNumbers) {
    // JSON has no NaN: a loss that was not finite is written as null.
    if (!j.contains(key) || !(j[key].is_number() || j[key].is_null()))
      throw refuse(std::string("no number \"") + key + "\"");
    summary_number(stats, key) = j[key].is_null() ? std::nan("") : j[key].get<double>();
  }
  return stats;
}
}  // namespace

void write_trained_stats(const RunDir& run, int g, const train::TrainStats& stats) {
  nlohmann::ordered_json j;
  j["generation"] = g;
  j["steps"] = stats.steps;
  j["samples_seen"] = stats.samples_seen;
  train::TrainStats copy = stats;
  for (const char* key : kSummaryNumbers) {
    const double x = summary_number(copy, key);
    j[key] = std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
  }
  write_file_atomic(run.train_summary(g).string(), j.dump() + "\n");
}

train::TrainStats trained_stats_of(const RunDir& run, int g) {
  if (fs::exists(run.train_summary(g))) return read_trained_stats(run.train_summary(g), g);
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
