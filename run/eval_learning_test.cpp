// The learned evaluation's learning check (issue 28): three generations of
// `mushroom run` from nothing on testdata/configs/eval-ci.toml (alpha-beta
// self-play at depth 2, training, evaluation), then the evaluation must
// predict the results of held-out games better than the material margin
// alone (log loss, each predictor with its best sigmoid scale). Ten seeds
// passed with margins of 0.008 to 0.044 nats (BENCHMARKS.md). The run is
// also stopped after one generation and resumed, which must keep what was
// done.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "nnue/network.h"
#include "run/run_dir.h"
#include "run/run_loop.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {
namespace {

namespace fs = std::filesystem;

TEST(EvalLearning, AShortRunPredictsHeldOutResultsBetterThanTheMaterialMargin) {
  const fs::path dir = fs::path("build-test-tmp") / "eval-ci";
  fs::remove_all(dir);
  RunOptions options;
  options.config_path = "testdata/configs/eval-ci.toml";
  options.dir = dir.string();
  options.threads = 2;
  options.generations = 1;  // stopped after one generation...
  run_training_loop(options);
  const RunDir run{dir, ".eval"};
  const std::string first_record = read_file(run.record(1).string());
  options.generations = 0;  // ...and resumed to the config's three
  run_training_loop(options);
  EXPECT_EQ(read_file(run.record(1).string()), first_record) << "the resumed run redid generation 1";

  for (int g = 1; g <= 3; ++g) {
    EXPECT_NO_THROW(nnue::read_network(run.model(g).string()));
    const view::GenerationRecord r = view::read_generation_record(run.record(g).string());
    ASSERT_TRUE(r.fit.has_value()) << "generation " << g;
    EXPECT_GT(r.fit->positions, 1000);
    EXPECT_EQ(r.selfplay_games, 240);
    EXPECT_EQ(r.train_steps, 300);
    std::printf("generation %d: held-out log loss %.4f, hand evaluation %.4f, material margin %.4f; %.3f against "
                "the hand evaluation\n",
                g, r.fit->learned_log_loss, r.fit->hand_log_loss, r.fit->material_log_loss, r.eval_score.value_or(-1));
  }
  const view::GenerationRecord last = view::read_generation_record(run.record(3).string());
  EXPECT_LT(last.fit->learned_log_loss, last.fit->material_log_loss);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::run
