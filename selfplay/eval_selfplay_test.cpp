#include "selfplay/eval_selfplay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "mushroom/alphabeta.h"
#include "nn/cpu_net.h"
#include "selfplay/shard.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

EvalSelfplayJob tiny_job(const std::string& dir) {
  EvalSelfplayJob job;
  job.job.config.workers = 2;
  job.job.config.samples_per_shard = 50;
  job.job.config.random_opening_plies = 6;
  job.job.out_dir = dir;
  job.job.games = 4;
  job.job.first_game_id = 70;
  job.eval.label_depth = 2;
  return job;
}

std::vector<Sample> read_all(const std::string& dir, int64_t* games) {
  std::vector<Sample> out;
  *games = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const Shard shard = read_shard(e.path().string(), "mushroom-eval");
    *games += shard.meta.games;
    out.insert(out.end(), shard.samples.begin(), shard.samples.end());
  }
  return out;
}

// Every sample is a searched position with the search's own score, and the
// final margins of one game agree between the two sides.
TEST(EvalSelfplay, SamplesCarryTheSearchScoreAndTheGamesResult) {
  const std::string dir = (fs::temp_directory_path() / ("eval_selfplay_" + std::to_string(getpid()))).string();
  fs::remove_all(dir);
  const SelfplayProgress progress = run_eval_selfplay(tiny_job(dir));
  EXPECT_EQ(progress.games_done, 4);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  EXPECT_EQ(games, 4);
  ASSERT_GT(samples.size(), 4u * 20);
  EXPECT_EQ(int64_t(samples.size()), progress.samples);
  std::map<int64_t, std::map<int, int>> margin_by_side;  // game -> side to move -> margin
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const EvalLabels labels = eval_labels_of(s);
    EXPECT_TRUE(s.policy.empty());
    EXPECT_FALSE(labels.has_teacher);
    EXPECT_EQ(s.outcome, (labels.margin > 0) - (labels.margin < 0));
    margin_by_side[s.game_id][s.to_move] = labels.margin;
    if (i % 7 == 0) {  // the label is the depth-2 search of this very position
      const Position pos = position_of(s, mushroom_eval_schema());
      EXPECT_EQ(AlphaBeta(AlphaBetaConfig{.tt_bits = 18}).search(pos, far, 2).score, labels.search_score);
    }
  }
  EXPECT_EQ(margin_by_side.size(), 4u);
  for (const auto& [id, sides] : margin_by_side) {
    if (sides.size() == 2) {
      EXPECT_EQ(sides.at(0), -sides.at(1)) << "game " << id;
    }
  }
  EXPECT_THROW(read_shard(fs::directory_iterator(dir)->path().string(), "mushroom"), ShardError);
  fs::remove_all(dir);
}

// With a teacher net, every sample holds the net's value for the side to move.
TEST(EvalSelfplay, ATeacherLabelsEverySampleWithItsValue) {
  const std::string dir = (fs::temp_directory_path() / ("eval_teacher_" + std::to_string(getpid()))).string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.job.games = 1;
  job.teacher = std::make_shared<nn::Model>(
      nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 4));
  run_eval_selfplay(job);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  ASSERT_FALSE(samples.empty());
  nn::CpuNet net(*job.teacher);
  for (const Sample& s : samples) {
    const EvalLabels labels = eval_labels_of(s);
    ASSERT_TRUE(labels.has_teacher);
    nn::NetEval e;
    net.evaluate(position_of(s, mushroom_eval_schema()), nullptr, 0, e);
    EXPECT_EQ(labels.teacher, int(std::lround(1000 * e.value())));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::selfplay
