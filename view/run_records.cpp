#include "view/run_records.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/text.h"

namespace mushroom::view {

using nlohmann::json;

namespace {

// Readers for one field of a record object; `source` names the record.
struct FieldReader {
  const json& object;
  const std::string& source;

  const json* find(const char* key) const {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }
  [[noreturn]] void wrong(const char* key, const char* expected) const {
    throw RecordError(source + ": field '" + key + "' is not " + expected);
  }
  // Missing or null: NaN (a value that was not finite when written).
  double number(const char* key) const {
    const json* v = find(key);
    if (!v) return std::nan("");
    if (!v->is_number()) wrong(key, "a number");
    return v->get<double>();
  }
  int64_t count(const char* key) const {
    const json* v = find(key);
    if (!v) return 0;
    if (!v->is_number()) wrong(key, "a number");
    return v->is_number_integer() ? v->get<int64_t>() : int64_t(std::llround(v->get<double>()));
  }
  // Missing or null: "" (records before the field existed).
  std::string text(const char* key) const {
    const json* v = find(key);
    if (!v) return "";
    if (!v->is_string()) wrong(key, "a string");
    return v->get<std::string>();
  }
  bool flag(const char* key) const {
    const json* v = find(key);
    if (!v) return false;
    if (v->is_boolean()) return v->get<bool>();
    if (!v->is_number()) wrong(key, "a number or a boolean");
    return v->get<double>() > 0;
  }
};

json parse_object(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // a syntax error, or a number past a double's range (1e400)
    throw RecordError(source + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw RecordError(source + ": a record must be a JSON object");
  return j;
}

// A fit's fields, by the names a generation record gives them (the
// figures measured later left out where they are NaN).
void put_fit(json& j, const FitRecord& fit) {
  j["learned_log_loss"] = fit.learned_log_loss;
  j["hand_log_loss"] = fit.hand_log_loss;
  j["material_log_loss"] = fit.material_log_loss;
  j["fit_positions"] = fit.positions;
  if (!std::isnan(fit.learned_search_loss)) {
    j["learned_search_loss"] = fit.learned_search_loss;
    j["hand_search_loss"] = fit.hand_search_loss;
  }
  if (!std::isnan(fit.learned_search_cells)) {
    j["learned_search_cells"] = fit.learned_search_cells;
    j["hand_search_cells"] = fit.hand_search_cells;
    j["learned_result_cells"] = fit.learned_result_cells;
    j["hand_result_cells"] = fit.hand_result_cells;
  }
}

}  // namespace

std::string to_json(const FitRecord& fit) {
  json j = json::object();
  put_fit(j, fit);
  return j.dump(2) + "\n";
}

std::string to_json_line(const TrainLine& t) {
  json j = {{"generation", t.generation},
                  {"step", t.step},
                  {"samples_seen", t.samples_seen},
                  {"lr", t.lr},
                  {"loss", t.loss},
                  {"policy", t.policy},
                  {"value", t.value},
                  {"score", t.score},
                  {"ownership", t.ownership},
                  {"policy_entropy", t.policy_entropy},
                  {"window", t.window}};
  if (!std::isnan(t.grad_norm)) j["grad_norm"] = t.grad_norm;
  return j.dump() + "\n";
}

TrainLine parse_train_line(const std::string& text, const std::string& source) {
  const json j = parse_object(text, source);
  const FieldReader f{j, source};
  TrainLine t;
  t.generation = int(f.count("generation"));
  t.step = int(f.count("step"));
  t.samples_seen = f.count("samples_seen");
  t.lr = f.number("lr");
  t.loss = f.number("loss");
  t.policy = f.number("policy");
  t.value = f.number("value");
  t.score = f.number("score");
  t.ownership = f.number("ownership");
  t.policy_entropy = f.number("policy_entropy");
  t.window = f.count("window");
  t.grad_norm = f.number("grad_norm");
  return t;
}

std::string to_json(const GenerationRecord& r) {
  json j = {{"generation", r.generation},
            {"promoted", r.promoted ? 1 : 0},
            {"selfplay_games", r.selfplay_games},
            {"selfplay_seconds", r.selfplay_seconds},
            {"selfplay_games_per_minute", r.selfplay_games_per_minute},
            {"selfplay_samples", r.selfplay_samples},
            {"mean_game_plies", r.mean_game_plies},
            {"batch_fill", r.batch_fill},
            {"nn_positions", r.nn_positions},
            {"train_steps", r.train_steps},
            {"train_seconds", r.train_seconds},
            {"loss", r.loss},
            {"samples_seen", r.samples_seen},
            {"gate_games", r.gate_games},
            {"gate_score", r.gate_score},
            {"eval_games", r.eval_games},
            {"eval_score", r.eval_score ? json(*r.eval_score) : json(nullptr)},
            {"eval_margin", r.eval_margin}};
  if (r.device_busy) j["device_busy"] = *r.device_busy;
  if (!r.mushroom_version.empty()) j["mushroom_version"] = r.mushroom_version;
  if (!r.config_hash.empty()) j["config_hash"] = r.config_hash;
  if (!std::isnan(r.run_seconds)) j["run_seconds"] = r.run_seconds;
  if (!r.stage_seconds.empty()) {
    json stages = json::object();
    for (const auto& [stage, seconds] : r.stage_seconds) stages[stage] = seconds;
    j["stage_seconds"] = stages;
  }
  if (r.grade) {
    j["policy_accuracy"] = r.grade->policy_accuracy;
    j["mcts_accuracy"] = r.grade->mcts_accuracy;
    j["value_accuracy"] = r.grade->value_accuracy;
    j["random_accuracy"] = r.grade->random_accuracy;
    j["grade_positions"] = r.grade->positions;
  }
  if (r.fit) put_fit(j, *r.fit);
  if (r.ladder) {
    j["ladder_elo"] = r.ladder->elo;
    j["ladder_low"] = r.ladder->low;
    j["ladder_high"] = r.ladder->high;
    j["ladder_games"] = r.ladder->games;
    j["ladder_anchor"] = r.ladder->anchor;
    if (!r.ladder->references.empty()) {
      json refs = json::object();
      for (const auto& [name, elo] : r.ladder->references) refs[name] = elo;
      j["ladder_references"] = refs;
    }
  }
  return j.dump() + "\n";
}

GenerationRecord parse_generation_record(const std::string& text, const std::string& source) {
  const json j = parse_object(text, source);
  const FieldReader f{j, source};
  GenerationRecord r;
  r.generation = int(f.count("generation"));
  if (r.generation <= 0) throw RecordError(source + ": no positive 'generation' field");
  r.promoted = f.flag("promoted");
  r.selfplay_games = f.count("selfplay_games");
  r.selfplay_seconds = f.number("selfplay_seconds");
  r.selfplay_games_per_minute = f.number("selfplay_games_per_minute");
  r.selfplay_samples = f.count("selfplay_samples");
  r.mean_game_plies = f.number("mean_game_plies");
  r.batch_fill = f.number("batch_fill");
  r.nn_positions = f.number("nn_positions");
  if (f.find("device_busy")) r.device_busy = f.number("device_busy");
  r.train_steps = int(f.count("train_steps"));
  r.train_seconds = f.number("train_seconds");
  r.loss = f.number("loss");
  r.samples_seen = f.count("samples_seen");
  r.gate_games = int(f.count("gate_games"));
  r.gate_score = f.number("gate_score");
  r.eval_games = int(f.count("eval_games"));
  const double eval_score = f.number("eval_score");
  // Records before the typed form wrote -1 for "not evaluated".
  if (!std::isnan(eval_score) && eval_score >= 0) r.eval_score = eval_score;
  r.eval_margin = f.number("eval_margin");
  r.mushroom_version = f.text("mushroom_version");
  r.config_hash = f.text("config_hash");
  if (f.find("mcts_accuracy")) {
    GradeRecord g;
    g.policy_accuracy = f.number("policy_accuracy");
    g.mcts_accuracy = f.number("mcts_accuracy");
    g.value_accuracy = f.number("value_accuracy");
    g.random_accuracy = f.number("random_accuracy");
    g.positions = int(f.count("grade_positions"));
    r.grade = g;
  }
  if (f.find("learned_log_loss")) {
    FitRecord fit;
    fit.learned_log_loss = f.number("learned_log_loss");
    fit.hand_log_loss = f.number("hand_log_loss");
    fit.material_log_loss = f.number("material_log_loss");
    fit.positions = int(f.count("fit_positions"));
    if (f.find("learned_search_loss")) {
      fit.learned_search_loss = f.number("learned_search_loss");
      fit.hand_search_loss = f.number("hand_search_loss");
    }
    if (f.find("learned_search_cells")) {
      fit.learned_search_cells = f.number("learned_search_cells");
      fit.hand_search_cells = f.number("hand_search_cells");
      fit.learned_result_cells = f.number("learned_result_cells");
      fit.hand_result_cells = f.number("hand_result_cells");
    }
    r.fit = fit;
  }
  if (f.find("ladder_elo")) {
    LadderRecord ladder;
    ladder.elo = f.number("ladder_elo");
    ladder.low = f.number("ladder_low");
    ladder.high = f.number("ladder_high");
    ladder.games = int(f.count("ladder_games"));
    const json* anchor = f.find("ladder_anchor");
    if (!anchor || !anchor->is_string()) throw RecordError(source + ": 'ladder_anchor' is missing or not a string");
    ladder.anchor = anchor->get<std::string>();
    if (const json* refs = f.find("ladder_references")) {
      if (!refs->is_object()) throw RecordError(source + ": 'ladder_references' is not an object");
      for (const auto& [name, elo] : refs->items()) {
        if (!elo.is_number()) throw RecordError(source + ": 'ladder_references' of '" + name + "' is not a number");
        ladder.references.emplace_back(name, elo.get<double>());
      }
    }
    r.ladder = ladder;
  }
  if (f.find("run_seconds")) r.run_seconds = f.number("run_seconds");
  if (const json* stages = f.find("stage_seconds")) {
    if (!stages->is_object()) throw RecordError(source + ": 'stage_seconds' is not an object");
    for (const auto& [stage, seconds] : stages->items()) {
      if (!seconds.is_number()) throw RecordError(source + ": 'stage_seconds' of '" + stage + "' is not a number");
      r.stage_seconds.emplace_back(stage, seconds.get<double>());
    }
  }
  return r;
}

GenerationRecord read_generation_record(const std::string& path) {
  return parse_generation_record(read_file(path), path);
}

std::vector<TrainLine> read_train_lines(const std::string& path) {
  std::vector<TrainLine> out;
  int number = 0;
  for (const std::string& line : split_lines(read_file(path))) {
    ++number;
    if (trim(line).empty()) continue;
    out.push_back(parse_train_line(line, path + ":" + std::to_string(number)));
  }
  return out;
}

std::string promoted_model_of_run(const std::string& run_dir) {
  const std::filesystem::path pointer = std::filesystem::path(run_dir) / "models" / "promoted.txt";
  if (!std::filesystem::exists(pointer)) return "";
  std::string name = read_file(pointer.string());
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  if (name.empty() || name.find_first_of("/\n") != std::string::npos || name == "." || name == "..")
    throw RecordError(pointer.string() + ": expected one model file name, found \"" + name + "\"");
  return (std::filesystem::path(run_dir) / "models" / name).string();
}

}  // namespace mushroom::view
