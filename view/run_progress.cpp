#include "view/run_progress.h"

#include <chrono>
#include <filesystem>

#include "util/json_report.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::view {

namespace fs = std::filesystem;

namespace {

fs::path progress_path(const std::string& dir) { return fs::path(dir) / "progress.json"; }

double number_or_nan(const JsonReport& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || !it->is_number() ? std::nan("") : it->get<double>();
}

}  // namespace

void write_run_progress(const std::string& dir, const ProgressSnapshot& s, bool finished) {
  JsonReport j = json_report_head("mushroom-run-progress", kRunProgressVersion);
  j["updated"] = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  j["state"] = finished ? "finished" : s.active && !s.ended ? "running" : "between stages";
  j["position"] = s.position;
  j["stage"] = s.stage;
  j["unit"] = s.unit;
  j["detail"] = s.detail;
  j["done"] = s.done;
  j["total"] = s.total;
  j["elapsed"] = s.elapsed;
  j["rate"] = s.rate;
  j["stage_left"] = s.stage_left;
  j["run_left"] = finished ? 0.0 : s.in_run ? s.run_left.seconds : std::nan("");
  j["untimed"] = s.run_left.untimed;
  j["line"] = finished ? "" : format_progress_line(s);
  write_json_report(progress_path(dir).string(), j);
}

std::optional<RunProgress> read_run_progress(const std::string& dir) {
  const fs::path path = progress_path(dir);
  if (!fs::exists(path)) return std::nullopt;
  JsonReport j;
  try {
    j = JsonReport::parse(read_file(path.string()));
  } catch (const nlohmann::json::exception& e) {
    throw RecordError(path.string() + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object() || j.value("schema", "") != "mushroom-run-progress")
    throw RecordError(path.string() + ": not a run's progress (schema mushroom-run-progress)");
  RunProgress p;
  try {
    p.state = j.value("state", "");
    p.position = j.value("position", "");
    p.stage = j.value("stage", "");
    p.unit = j.value("unit", "");
    p.detail = j.value("detail", "");
    p.done = j.value("done", int64_t(0));
    p.total = j.value("total", int64_t(0));
    p.elapsed = number_or_nan(j, "elapsed");
    p.rate = number_or_nan(j, "rate");
    p.stage_left = number_or_nan(j, "stage_left");
    p.run_left = number_or_nan(j, "run_left");
    p.untimed = j.value("untimed", std::vector<std::string>{});
    p.updated = number_or_nan(j, "updated");
    p.updated_text = j.value("written", "");
    p.line = j.value("line", "");
  } catch (const nlohmann::json::exception& e) {
    throw RecordError(path.string() + ": a field has the wrong type (" + e.what() + ")");
  }
  return p;
}

}  // namespace mushroom::view
