#include "train/run_dir.h"

#include <cstdio>

#include "view/run_records.h"

namespace mushroom::train {

namespace fs = std::filesystem;

std::string generation_name(int g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "gen-%04d", g);
  return buf;
}

void RunDir::prepare() const {
  fs::create_directories(root / "models");
  fs::create_directories(root / "metrics");
  fs::create_directories(root / "plots");
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

}  // namespace mushroom::train
