// A run's own records (run/run_dir.h, view/run_records.h, run/run_clock.h)
// as a resumed run and its dashboard read them. The input is cut at
// "--8<--" lines into the files of a run folder in the scratch folder:
//   models/promoted.txt, metrics/gen-0001.json, metrics/gen-0002.json,
//   metrics/train-gen-0001.jsonl, clock/100-1.txt, clock/200-2.txt,
//   data/gen-0001/games/game-0001.log, metrics/train-gen-0001.summary.json
// and each reader a resume calls then reads them: the promoted pointer,
// the best model by the generation records, the run's clock, the training
// stage's figures, every metric, and the dashboard page drawn from them
// (with its sample game).
// Each refuses bad records with an error naming the file.
#include <iterator>
#include <string>

#include "fuzz/fuzz_support.h"
#include "run/run_clock.h"
#include "run/run_dir.h"
#include "run/train_summary.h"
#include "view/dashboard.h"
#include "view/run_metrics.h"

using namespace mushroom;

namespace {

constexpr const char* kFiles[] = {"models/promoted.txt",         "metrics/gen-0001.json", "metrics/gen-0002.json",
                                  "metrics/train-gen-0001.jsonl", "clock/100-1.txt",       "clock/200-2.txt",
                                  "data/gen-0001/games/game-0001.log", "metrics/train-gen-0001.summary.json"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = fuzz::fresh_scratch() + "/run";
  const auto parts = fuzz::split_parts(fuzz::as_text(data, size), std::size(kFiles));
  for (size_t i = 0; i < parts.size(); ++i)
    if (!parts[i].empty()) fuzz::write_scratch_file(std::string("run/") + kFiles[i], parts[i]);
  const run::RunDir run{dir, ".eval"};
  fuzz::read_or_refuse(dir, [&] { run::read_promoted_pointer(run); });
  fuzz::read_or_refuse(dir, [&] { run::best_model_of_run(dir, "", ".eval"); });
  fuzz::read_or_refuse(dir, [&] { run::run_clock_seconds(run.root); });
  fuzz::read_or_refuse(dir, [&] { run::trained_stats_of(run, 1); });
  fuzz::read_or_refuse(dir, [&] { view::read_run_metrics(dir); });
  fuzz::read_or_refuse(dir, [&] { view::write_dashboard(dir); });
  return 0;
}
