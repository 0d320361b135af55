#include "view/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "util/text.h"

namespace mushroom::view {

namespace fs = std::filesystem;

std::string json_field(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "nan";
  size_t start = at + key.size() + 3;
  while (start < line.size() && line[start] == ' ') ++start;
  size_t end = start;
  while (end < line.size() && line[end] != ',' && line[end] != '}') ++end;
  return line.substr(start, end - start);
}

namespace {

double number(const std::string& line, const std::string& key) {
  double v = 0;
  return parse_double(json_field(line, key), v) ? v : std::nan("");
}

}  // namespace

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
      p.generation = int(number(line, "generation"));
      p.samples_seen = number(line, "samples_seen");
      p.loss = number(line, "loss");
      p.policy = number(line, "policy");
      p.value = number(line, "value");
      p.score = number(line, "score");
      p.ownership = number(line, "ownership");
      p.policy_entropy = number(line, "policy_entropy");
      out.training.push_back(p);
    }
  for (const auto& f : gen_files) {
    const std::string line = read_file(f.string());
    GenerationRecord r;
    r.generation = int(number(line, "generation"));
    r.promoted = number(line, "promoted") > 0;
    r.gate_score = number(line, "gate_score");
    r.eval_score = number(line, "eval_score");
    if (r.eval_score < 0) r.eval_score = std::nan("");  // -1: not evaluated this generation
    r.eval_margin = number(line, "eval_margin");
    r.selfplay_games_per_minute = number(line, "selfplay_games_per_minute");
    r.nn_positions = number(line, "nn_positions");
    r.selfplay_seconds = number(line, "selfplay_seconds");
    r.train_seconds = number(line, "train_seconds");
    out.generations.push_back(r);
  }
  return out;
}

}  // namespace mushroom::view
