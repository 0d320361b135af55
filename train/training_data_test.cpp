#include "train/training_data.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "mushroom/symmetry.h"
#include "nn/features.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

selfplay::Sample sample_with_target(const Position& p, const Move& target) {
  selfplay::Sample s = selfplay::sample_from_position(p);
  s.policy = {{target.index(), 1.0f}};
  s.outcome = 1;
  int8_t ownership[kCells] = {};
  ownership[0] = 1;  // cell (0,0)
  selfplay::set_final_result(s, 7, ownership);
  return s;
}

// Under every symmetry, the target stays on the image of the recorded move
// and the ownership target moves with the board.
TEST(TrainingData, BatchesTransformTargetsWithTheBoard) {
  const Position p = playout_positions(40, 2)[20];
  MoveList list;
  ASSERT_GT(generate_moves(p, list), 0);
  const Move target = list[0];
  const std::vector<selfplay::Sample> samples = {sample_with_target(p, target)};
  Rng rng(5);
  std::set<int> seen;
  for (int trial = 0; trial < 40; ++trial) {
    const Batch b = make_batch(samples, {0}, rng);
    // Which symmetry was used: find it from the planes.
    int used = -1;
    for (Symmetry s : kAllSymmetries) {
      std::vector<float> planes(nn::kInputSize);
      nn::encode_features(transform(s, p), planes.data());
      if (torch::equal(b.planes[0].flatten(), torch::from_blob(planes.data(), {nn::kInputSize}))) used = int(s);
    }
    ASSERT_GE(used, 0);
    seen.insert(used);
    const int64_t slot = b.policy_target[0].argmax().item<int64_t>();
    EXPECT_EQ(b.moves[0][slot].item<int64_t>(), transform(Symmetry(used), target).index());
    EXPECT_FLOAT_EQ(b.policy_target[0].sum().item<float>(), 1.0f);
    int r = 0, c = 0;
    transform_cell(Symmetry(used), r, c);
    EXPECT_EQ(b.ownership_target[0][r * kCols + c].item<float>(), 1.0f);
    EXPECT_EQ(b.wdl_target[0].item<int64_t>(), 0);
  }
  EXPECT_EQ(seen.size(), 4u);
}

TEST(TrainingData, WindowTakesTheNewestAndSkipsBadShardsByName) {
  const fs::path dir = test_scratch_dir() / "window_test";
  fs::create_directories(dir / "gen-0001");
  fs::create_directories(dir / "gen-0002");
  const auto positions = playout_positions(30, 9);
  std::vector<selfplay::Sample> old_samples, new_samples;
  for (int i = 0; i < 10; ++i) old_samples.push_back(sample_with_target(positions[i], Move::pass()));
  for (int i = 10; i < 16; ++i) new_samples.push_back(sample_with_target(positions[i], Move::pass()));
  selfplay::write_shard((dir / "gen-0001" / "shard-a.h5").string(), {}, old_samples);
  selfplay::write_shard((dir / "gen-0002" / "shard-a.h5").string(), {}, new_samples);
  { std::FILE* f = std::fopen((dir / "gen-0002" / "shard-b.h5").c_str(), "w"); std::fputs("junk", f); std::fclose(f); }
  { std::FILE* f = std::fopen((dir / "gen-0002" / "shard-c.h5.tmp.1").c_str(), "w"); std::fputs("junk", f); std::fclose(f); }

  const auto shards = find_shards(dir.string());
  ASSERT_EQ(shards.size(), 3u);  // the temp file is not a shard
  std::vector<std::string> warnings;
  const TrainingWindow w = load_window(shards, 8, [&](const std::string& m) { warnings.push_back(m); });
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("shard-b.h5"), std::string::npos) << warnings[0];
  ASSERT_EQ(w.samples.size(), 8u);
  // The 6 new samples and the 2 newest old ones, oldest first.
  EXPECT_EQ(position_of(w.samples.back()).hash(), positions[15].hash());
  EXPECT_EQ(position_of(w.samples.front()).hash(), positions[8].hash());
  fs::remove_all(dir);
}

// train.window_first_generation: only the gen-NNNN folders from that
// generation on; 0 and 1 take every shard; a folder with no generations is
// refused by name rather than read as empty.
TEST(TrainingData, WindowFromAGenerationOnTakesOnlyItsFolders) {
  const fs::path dir = test_scratch_dir() / "window_generations_test";
  fs::remove_all(dir);
  for (const char* folder : {"gen-0009", "gen-0010", "gen-0011", "gen-0012/games"}) fs::create_directories(dir / folder);
  for (const char* shard : {"gen-0009/shard-1.h5", "gen-0010/shard-2.h5", "gen-0011/shard-3.h5",
                            "gen-0011/shard-4.h5", "gen-0012/shard-5.h5", "gen-0012/games/shard-6.h5",
                            "stray.h5"}) {
    std::FILE* f = std::fopen((dir / shard).c_str(), "w");
    std::fclose(f);
  }
  const auto names = [&](const std::vector<std::string>& shards) {
    std::vector<std::string> out;
    for (const std::string& s : shards) out.push_back(fs::relative(s, dir).string());
    return out;
  };
  EXPECT_EQ(names(find_shards_from_generation(dir.string(), 11)),
            (std::vector<std::string>{"gen-0011/shard-3.h5", "gen-0011/shard-4.h5", "gen-0012/games/shard-6.h5",
                                      "gen-0012/shard-5.h5"}));
  EXPECT_EQ(find_shards_from_generation(dir.string(), 0), find_shards(dir.string()));
  EXPECT_EQ(find_shards_from_generation(dir.string(), 1).size(), 7u);
  EXPECT_TRUE(find_shards_from_generation(dir.string(), 13).empty());

  const fs::path flat = dir / "gen-0011";
  try {
    find_shards_from_generation(flat.string(), 11);
    FAIL() << "a folder without gen-NNNN folders was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("train.window_first_generation = 11"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(flat.string()), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::train
