#include "selfplay/game_selfplay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "blockgame/blockgame_game.h"
#include "selfplay/selfplay_workers.h"
#include "selfplay/shard.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;
using blockgame::BlockGame;

const SampleSchema& schema() { return sample_schema("blockgame"); }
Sample blockgame_sample(uint32_t filled) { return sample_of_state<BlockGame>(schema(), blockgame::State{filled, 0, 0}); }
uint32_t filled_of(const Sample& s) { return state_of_sample<BlockGame>(schema(), s).filled; }
SelfplayProgress run_blockgame_selfplay(const SelfplayJob& job) {
  return run_game_selfplay<BlockGame>(job, nn::GameKind::kBlockgame, schema());
}

class BlockgameSelfplayTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  ScratchFolder folder_{"mushroom_bg_selfplay_test"};
  const fs::path& dir_ = folder_.dir();
};

std::vector<Sample> some_samples() {
  std::vector<Sample> out;
  for (int k = 0; k < 5; ++k) {
    Sample s = blockgame_sample(blockgame::placements()[size_t(k * 7)]);
    s.to_move = uint8_t(k % 2);
    s.ply = int16_t(k);
    s.policy = {{blockgame::slot_of_placement(90), 0.25f}, {blockgame::slot_of_placement(95), 0.75f}};
    s.outcome = k % 2 ? 1 : -1;
    s.search_value = 0.1f * float(k);
    s.game_id = 7 + k;
    out.push_back(s);
  }
  return out;
}

TEST_F(BlockgameSelfplayTest, ShardsRoundTrip) {
  const auto samples = some_samples();
  write_shard(path("b.h5"), ShardMeta{"m", "h", 3, 2, "blockgame"}, samples);
  const Shard shard = read_shard(path("b.h5"), "blockgame");
  const ShardMeta& meta = shard.meta;
  const auto& back = shard.samples;
  EXPECT_EQ(meta.game, "blockgame");
  EXPECT_EQ(meta.model_id, "m");
  EXPECT_EQ(meta.games, 2);
  ASSERT_EQ(back.size(), samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(filled_of(back[i]), filled_of(samples[i]));
    EXPECT_EQ(back[i].to_move, samples[i].to_move);
    EXPECT_EQ(back[i].ply, samples[i].ply);
    EXPECT_EQ(back[i].policy, samples[i].policy);
    EXPECT_EQ(back[i].outcome, samples[i].outcome);
    EXPECT_EQ(back[i].game_id, samples[i].game_id);
  }
}

TEST_F(BlockgameSelfplayTest, EachReaderRefusesTheOtherGamesShardsByName) {
  write_shard(path("b.h5"), ShardMeta{"", "", 0, 0, "blockgame"}, some_samples());
  try {
    read_shard(path("b.h5"));
    FAIL() << "a blockgame shard was read as mushroom data";
  } catch (const ShardError& e) {
    EXPECT_NE(std::string(e.what()).find("a blockgame shard where mushroom data was expected"), std::string::npos)
        << e.what();
  }
  write_shard(path("m.h5"), ShardMeta{}, {});
  EXPECT_THROW(read_shard(path("m.h5"), "blockgame"), ShardError);
}

TEST_F(BlockgameSelfplayTest, BadValuesAreNamed) {
  auto samples = some_samples();
  samples[1].outcome = 0;
  write_shard(path("o.h5"), ShardMeta{"", "", 0, 0, "blockgame"}, samples);
  try {
    read_shard(path("o.h5"), "blockgame");
    FAIL();
  } catch (const ShardError& e) {
    EXPECT_NE(std::string(e.what()).find("outcome of 0 (sample 1)"), std::string::npos) << e.what();
  }
  samples = some_samples();
  samples[2].policy = {{blockgame::kPolicySlots, 1.0f}};
  write_shard(path("p.h5"), ShardMeta{"", "", 0, 0, "blockgame"}, samples);
  try {
    read_shard(path("p.h5"), "blockgame");
    FAIL();
  } catch (const ShardError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range (sample 2)"), std::string::npos) << e.what();
  }
}

// Small model-free Gumbel self-play, every move recorded.
SelfplayJob small_recorded_job(int workers) {
  SelfplayJob job;
  job.config.workers = workers;
  job.config.games_in_flight = 4;
  job.config.full_sims = 32;
  job.config.cheap_sims = 8;
  job.config.full_search_fraction = 1.0;
  job.config.exploration = "gumbel";
  job.config.random_opening_plies = 3;
  return job;
}

// Without a model: every game is played to its end, every sample is a
// position with legal targets, and the outcome is +1 exactly for the side
// that placed the last piece.
TEST_F(BlockgameSelfplayTest, GamesProduceConsistentSamples) {
  SelfplayJob job = small_recorded_job(2);
  job.config.samples_per_shard = 25;
  job.out_dir = dir_.string();
  job.games = 20;
  job.first_game_id = 500;
  const SelfplayProgress progress = run_blockgame_selfplay(job);
  EXPECT_EQ(progress.games_done, 20);
  int64_t games = 0, samples = 0;
  std::set<int64_t> ids;
  for (const auto& e : fs::directory_iterator(dir_)) {
    const Shard shard = read_shard(e.path().string(), "blockgame");
    games += shard.meta.games;
    for (const Sample& s : shard.samples) {
      ++samples;
      ids.insert(s.game_id);
      EXPECT_GE(s.game_id, 500);
      EXPECT_LT(s.game_id, 520);
      uint8_t legal[blockgame::kPlacements];
      const int n = blockgame::legal_placements(filled_of(s), legal);
      ASSERT_GT(n, 0) << "a sample of a finished position";
      std::set<int> legal_slots;
      for (int i = 0; i < n; ++i) legal_slots.insert(blockgame::slot_of_placement(legal[i]));
      for (const auto& [slot, prob] : s.policy) EXPECT_TRUE(legal_slots.count(slot)) << "illegal target slot " << slot;
      EXPECT_TRUE(s.outcome == 1 || s.outcome == -1);
    }
  }
  EXPECT_EQ(games, 20);
  EXPECT_EQ(samples, progress.samples);
  EXPECT_GT(ids.size(), 15u);
  // Within one game, the two sides' outcomes are opposite.
  std::map<std::pair<int64_t, int>, int> outcome_by_game_side;
  for (const auto& e : fs::directory_iterator(dir_))
    for (const Sample& s : read_shard(e.path().string(), "blockgame").samples) {
      auto [it, fresh] = outcome_by_game_side.emplace(std::make_pair(s.game_id, int(s.to_move)), s.outcome);
      EXPECT_EQ(it->second, s.outcome) << "game " << s.game_id;
      auto other = outcome_by_game_side.find({s.game_id, 1 - s.to_move});
      if (other != outcome_by_game_side.end()) {
        EXPECT_EQ(other->second, -s.outcome);
      }
    }
}

// A search slot after a search from `filled` on uniform priors.
SearchSlot<blockgame::BlockGame> searched_slot(uint32_t filled) {
  SearchSlot<blockgame::BlockGame> slot{MctsConfig{}};
  blockgame::State state;
  state.filled = filled;
  slot.mcts.reset(state);
  UniformEvaluator<blockgame::BlockGame> uniform;
  slot.mcts.run(uniform, 64);
  return slot;
}

TEST(KeepSearchSample, ProvenRootsAreKeptWithTheConfiguredShare) {
  // Every cell filled but one placement's: whoever places there places last,
  // and the search proves it; the empty board stays open after 64 simulations.
  const auto won = searched_slot(blockgame::kFull & ~blockgame::placements()[0]);
  const auto open = searched_slot(0);
  ASSERT_TRUE(won.root_settled());
  ASSERT_FALSE(open.root_settled());

  SelfplayConfig config;
  Rng rng(3);
  int kept = 0;
  for (int i = 0; i < 1000; ++i) kept += keep_search_sample(won, config, rng);
  EXPECT_EQ(kept, 1000) << "the default keeps every sample";
  config.proven_sample_fraction = 0.25;
  kept = 0;
  for (int i = 0; i < 1000; ++i) kept += keep_search_sample(won, config, rng);
  EXPECT_GT(kept, 200);
  EXPECT_LT(kept, 300);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(keep_search_sample(open, config, rng));
}

// A position where one placement ends the game is a proven win for the mover.
int64_t samples_one_placement_from_the_end(const fs::path& dir, int64_t* total) {
  int64_t count = 0;
  *total = 0;
  for (const auto& e : fs::directory_iterator(dir))
    for (const Sample& s : read_shard(e.path().string(), "blockgame").samples) {
      ++*total;
      uint8_t legal[blockgame::kPlacements], next[blockgame::kPlacements];
      const int n = blockgame::legal_placements(filled_of(s), legal);
      for (int i = 0; i < n; ++i)
        if (blockgame::legal_placements(filled_of(s) | blockgame::placements()[legal[i]], next) == 0) {
          ++count;
          break;
        }
    }
  return count;
}

TEST_F(BlockgameSelfplayTest, ProvenRootsAreDroppedWhenAsked) {
  SelfplayJob job = small_recorded_job(1);
  job.games = 12;
  job.out_dir = path("all");
  fs::create_directories(job.out_dir);
  run_blockgame_selfplay(job);
  int64_t all = 0;
  EXPECT_GT(samples_one_placement_from_the_end(path("all"), &all), 0) << "the check below would prove nothing";

  job.config.proven_sample_fraction = 0.0;
  job.out_dir = path("open");
  fs::create_directories(job.out_dir);
  run_blockgame_selfplay(job);
  int64_t open = 0;
  EXPECT_EQ(samples_one_placement_from_the_end(path("open"), &open), 0);
  EXPECT_GT(open, 0);
  EXPECT_LT(open, all);
}

}  // namespace
}  // namespace mushroom::selfplay
