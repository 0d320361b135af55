#include "run/run_dir.h"

#include <cstdio>
#include <stdexcept>

#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {

namespace fs = std::filesystem;

std::string generation_name(int g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "gen-%04d", g);
  return buf;
}

void RunDir::prepare(bool remove_temp_files) const {
  fs::create_directories(root / "models");
  fs::create_directories(root / "metrics");
  fs::create_directories(root / "plots");
  if (!remove_temp_files) return;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().filename().string().find(".tmp") != std::string::npos) fs::remove(e.path());
}

std::string best_model_of_run(const std::string& dir, const std::string& fallback, const std::string& model_extension) {
  const RunDir run{dir, model_extension};
  std::string best = fallback;
  for (int g = 1; fs::exists(run.record(g)); ++g)
    if (view::read_generation_record(run.record(g).string()).promoted) best = run.model(g).string();
  return best;
}

std::string run_init_model(const RunDir& run, const std::string& init_model) {
  if (init_model.empty()) return "";
  const fs::path copy = run.root / "models" / ("init" + run.model_extension);
  if (fs::exists(copy) && fs::equivalent(copy, init_model)) return copy.string();  // resumed with --init it
  const std::string bytes = read_file(init_model);
  if (!fs::exists(copy)) {
    fs::create_directories(copy.parent_path());
    write_file_atomic(copy.string(), bytes);
  } else if (read_file(copy.string()) != bytes) {
    throw std::invalid_argument("--init " + init_model + " is not the model this run started from (" + copy.string() +
                                " holds another): resume with --init " + copy.string() +
                                ", or start a new run directory");
  }
  return copy.string();
}

std::string begin_optimizer_state(const RunDir& run, bool carry) {
  const fs::path work = run.optimizer_in_training();
  fs::remove(work);  // a killed training's (or a copy a kill cut short): not the run's moments
  if (carry && fs::exists(run.optimizer())) fs::copy_file(run.optimizer(), work);
  return work.string();
}

void finish_optimizer_state(const RunDir& run) {
  if (fs::exists(run.optimizer_in_training())) fs::rename(run.optimizer_in_training(), run.optimizer());
}

void write_promoted_pointer(const RunDir& run, const std::string& model) {
  if (model.empty()) return;
  write_file_atomic(run.promoted_pointer().string(), fs::path(model).filename().string() + "\n");
}

std::string read_promoted_pointer(const RunDir& run) { return view::promoted_model_of_run(run.root.string()); }

}  // namespace mushroom::run
