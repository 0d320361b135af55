// The registration test of a third game: tic-tac-toe (engine/tictactoe/)
// goes through the whole learning pipeline, `mushroom run`'s loop on
// testdata/configs/tictactoe.toml, with nothing written for it beyond its
// folder and its registration lines (docs/adding-a-game.md). Generation 1
// self-plays on uniform priors and trains; generation 2 self-plays with that
// net (the generic evaluator through the LibTorch backend) and trains on.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "nn/model_file.h"
#include "run/run_dir.h"
#include "run/train_summary.h"
#include "run/run_loop.h"
#include "selfplay/shard.h"
#include "tictactoe/tictactoe.h"
#include "train/training_data.h"
#include "view/run_records.h"

namespace mushroom::run {
namespace {

namespace fs = std::filesystem;
using tictactoe::TicTacToe;

TEST(TictactoeLearning, OneGameFolderAndItsRegistrationRunTheWholeLoop) {
  const fs::path dir = fs::path("build-test-tmp") / "tictactoe-run";
  fs::remove_all(dir);
  std::vector<std::string> log;
  RunOptions options;
  options.config_path = "testdata/configs/tictactoe.toml";
  options.dir = dir.string();
  options.threads = 1;
  options.log = [&](const std::string& line) { log.push_back(line); };
  run_training_loop(options);
  const RunDir run{dir};

  for (int g = 1; g <= 2; ++g) {
    // Self-play wrote tic-tac-toe shards whose samples are sound positions.
    const std::vector<std::string> shards = train::find_shards(run.data(g).string());
    ASSERT_FALSE(shards.empty()) << "generation " << g;
    int64_t games = 0, samples = 0;
    std::set<int> outcomes;
    for (const std::string& path : shards) {
      const selfplay::Shard shard = selfplay::read_shard(path, "tictactoe");
      EXPECT_EQ(shard.meta.game, "tictactoe");
      if (g == 2) {
        EXPECT_NE(shard.meta.model_id.find("gen-0001"), std::string::npos) << shard.meta.model_id;
      }
      games += shard.meta.games;
      for (const selfplay::Sample& s : shard.samples) {
        const tictactoe::State state = selfplay::state_of_sample<TicTacToe>(selfplay::sample_schema("tictactoe"), s);
        ASSERT_FALSE(TicTacToe::is_terminal(state));
        EXPECT_EQ(s.ply, TicTacToe::ply(state));
        double total = 0;
        for (const auto& [slot, p] : s.policy) {
          ASSERT_GE(slot, 0);
          ASSERT_LT(slot, tictactoe::kCells);
          EXPECT_FALSE(((state.marks[0] | state.marks[1]) >> slot) & 1) << "target on a marked cell";
          total += p;
        }
        EXPECT_NEAR(total, 1.0, 1e-4);
        outcomes.insert(s.outcome);
        ++samples;
      }
    }
    EXPECT_EQ(games, 48) << "generation " << g;
    EXPECT_GT(samples, 48 * 3) << "generation " << g;
    EXPECT_TRUE(outcomes.count(0)) << "no drawn game in generation " << g;  // draws are a result here

    // Training made a tic-tac-toe net of the config's shape, from finite losses.
    const nn::Model model = nn::load_model(run.model(g).string());
    EXPECT_EQ(model.config.game, nn::GameKind::kTictactoe);
    EXPECT_EQ(model.at("policy.conv.weight").shape, (std::vector<int64_t>{1, 8, 1, 1}));
    const std::vector<view::TrainLine> lines = view::read_train_lines(run.train_metrics(g).string());
    ASSERT_FALSE(lines.empty());
    for (const view::TrainLine& t : lines) EXPECT_TRUE(std::isfinite(t.loss) && t.loss > 0) << "step " << t.step;

    // The gatekeeper played its matches and wrote the record.
    const view::GenerationRecord record = view::read_generation_record(run.record(g).string());
    EXPECT_EQ(record.generation, g);
    EXPECT_EQ(record.train_steps, 20);
    // The conv net's learner wrote its summary too, and the record holds its
    // loss: the mean of the last two steps, not the last line's one step.
    ASSERT_TRUE(fs::exists(run.train_summary(g))) << "generation " << g;
    EXPECT_EQ(record.loss, trained_stats_of(run, g).loss);
    EXPECT_NE(record.loss, lines.back().loss);
    EXPECT_EQ(record.gate_games, 8);
    EXPECT_EQ(record.eval_games, 8);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::run
