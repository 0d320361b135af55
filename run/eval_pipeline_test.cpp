// The learner stage of the "eval" pipeline (run/eval_pipeline.h) across
// generations whose config changes the net's shape.
#include "run/eval_pipeline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "train/nnue/eval_test_util.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::run {
namespace {

// A run whose config changes the architecture between generations (runs
// resume with an edited config) trains the next generation from fresh
// weights of the new shape, and says so; an unchanged one goes on from the
// previous generation's weights.
TEST(EvalPipeline, ARunThatChangesTheArchitectureStartsThatGenerationAfresh) {
  const RunDir run{test_scratch_dir() / "eval_arch_change", ".eval"};
  std::filesystem::remove_all(run.root);
  train::selfplay_window(run.data(1), 6);
  run.prepare();
  write_file_atomic(run.model(1).string(), nnue::serialize_network(train::lively_model(7)));  // H=32 L1=8 L2=8
  const RunConfig config = parse_run_config(
      "[run]\nmodel = \"eval\"\n[evalnet]\nhidden = 16\nl1 = 8\nl2 = 8\nseat_buckets = 2\n[train]\nsteps = 5\n"
      "batch_size = 64\nthreads = 1\noptimizer = \"adam\"\n",
      "test.toml");
  std::vector<std::string> lines;
  const StageLog log = [&](const std::string& line) { lines.push_back(line); };
  eval_pipeline(config).learn(run, 2, "", log);
  const nnue::Network second = nnue::read_network(run.model(2).string());
  EXPECT_EQ(second.shape.to_string(), "H=16 L1=8 L2=8, 1 phase x 2 seat buckets");
  bool said = false;
  for (const std::string& l : lines) said = said || l.find("starts from fresh weights") != std::string::npos;
  EXPECT_TRUE(said);
  lines.clear();
  eval_pipeline(config).learn(run, 3, "", log);  // the same shape: it goes on
  for (const std::string& l : lines) EXPECT_EQ(l.find("fresh weights"), std::string::npos) << l;
  EXPECT_EQ(nnue::read_network(run.model(3).string()).shape, second.shape);
  // A model the user asked to start from (--init) is never swapped for fresh weights: another shape is an error.
  const RunDir other{run.root / "other", ".eval"};
  other.prepare();
  try {
    eval_pipeline(config).learn(other, 1, run.model(1).string(), log);
    ADD_FAILURE() << "an --init model of another architecture was not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the evaluation to train from is H=32 L1=8 L2=8 but [evalnet] asks for H=16"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(run.root);
}

}  // namespace
}  // namespace mushroom::run
