#include "view/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "util/text.h"

namespace mushroom::view {

namespace fs = std::filesystem;

namespace {

// The text after "key": up to the next ',' or '}' ("nan" if absent).
std::string json_field(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "nan";
  size_t start = at + key.size() + 3;
  while (start < line.size() && line[start] == ' ') ++start;
  size_t end = start;
  while (end < line.size() && line[end] != ',' && line[end] != '}') ++end;
  return line.substr(start, end - start);
}

}  // namespace

double json_number(const std::string& line, const std::string& key) {
  double v = 0;
  return parse_double(trim(json_field(line, key)), v) ? v : std::nan("");
}

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
    for (const std::string& line : split_lines(read_file(f.string()))) {
      if (trim(line).empty()) continue;
      TrainPoint p;
      p.generation = int(json_number(line, "generation"));
      p.samples_seen = json_number(line, "samples_seen");
      p.loss = json_number(line, "loss");
      p.policy = json_number(line, "policy");
      p.value = json_number(line, "value");
      p.score = json_number(line, "score");
      p.ownership = json_number(line, "ownership");
      p.policy_entropy = json_number(line, "policy_entropy");
      out.training.push_back(p);
    }
  for (const auto& f : gen_files) {
    const std::string line = read_file(f.string());
    GenerationRecord r;
    r.generation = int(json_number(line, "generation"));
    r.promoted = json_number(line, "promoted") > 0;
    r.gate_score = json_number(line, "gate_score");
    r.eval_score = json_number(line, "eval_score");
    r.policy_accuracy = json_number(line, "policy_accuracy");
    r.mcts_accuracy = json_number(line, "mcts_accuracy");
    r.value_accuracy = json_number(line, "value_accuracy");
    r.random_accuracy = json_number(line, "random_accuracy");
    if (r.eval_score < 0) r.eval_score = std::nan("");  // -1: not evaluated this generation
    r.eval_margin = json_number(line, "eval_margin");
    r.selfplay_games_per_minute = json_number(line, "selfplay_games_per_minute");
    r.nn_positions = json_number(line, "nn_positions");
    r.selfplay_seconds = json_number(line, "selfplay_seconds");
    r.train_seconds = json_number(line, "train_seconds");
    out.generations.push_back(r);
  }
  return out;
}

bool RunMetrics::graded() const {
  for (const GenerationRecord& r : generations)
    if (!std::isnan(r.policy_accuracy)) return true;
  return false;
}

}  // namespace mushroom::view
