#include "selfplay/shard.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "mushroom/playout_positions.h"
#include "nn/hdf5_file.h"
#include "util/scratch_folder_test_util.h"
#include "util/version.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

class ShardTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir() / name).string(); }
  const fs::path& dir() const { return folder_.dir(); }
  ScratchFolder folder_{"mushroom_shard_test"};
};

std::vector<Sample> some_samples() {
  std::vector<Sample> out;
  int k = 0;
  for (const Position& p : playout_positions(5, 3)) {
    Sample s = sample_from_position(p);
    s.policy = {{k, 0.25f}, {kPassIndex, 0.75f}};
    s.outcome = int8_t(k % 3 - 1);
    int8_t ownership[kCells] = {};
    ownership[k] = 1;
    ownership[k + 1] = -1;
    set_final_result(s, k * 3 - 5, ownership);
    s.weight = 1.0f;
    s.search_value = 0.1f * k;
    s.game_id = 100 + k;
    out.push_back(s);
    ++k;
  }
  return out;
}

TEST_F(ShardTest, RoundTripKeepsEverySampleAndThePositions) {
  const auto samples = some_samples();
  write_shard(path("s.h5"), ShardMeta{"model-x", "abc", 42, 3}, samples);
  const Shard back = read_shard(path("s.h5"));
  EXPECT_EQ(back.meta.model_id, "model-x");
  EXPECT_EQ(back.meta.config_hash, "abc");
  EXPECT_EQ(back.meta.generator_seed, 42u);
  EXPECT_EQ(back.meta.games, 3);
  EXPECT_EQ(back.meta.mushroom_version, build_version());  // the build that wrote it
  ASSERT_EQ(back.samples.size(), samples.size());
  const auto positions = playout_positions(5, 3);
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& a = samples[i];
    const Sample& b = back.samples[i];
    EXPECT_EQ(a.data, b.data);  // digits, owners, last_pass, margin and ownership, packed
    EXPECT_EQ(a.policy, b.policy);
    EXPECT_EQ(a.outcome, b.outcome);
    EXPECT_EQ(margin_of(a), margin_of(b));
    EXPECT_EQ(margin_of(b), int(i) * 3 - 5);
    EXPECT_EQ(ownership_of(b, int(i)), 1);
    EXPECT_EQ(ownership_of(b, int(i) + 1), -1);
    EXPECT_EQ(a.search_value, b.search_value);
    EXPECT_EQ(a.game_id, b.game_id);
    const Position p = position_of(b);
    EXPECT_EQ(p.hash(), positions[i].hash());
    EXPECT_EQ(p.score(kFirst), positions[i].score(kFirst));
  }
  // Written under a temp name, then renamed: nothing else is left behind.
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir())) ++files;
  EXPECT_EQ(files, 1);
}

void expect_named_error(const std::string& file, const std::string& needle) {
  try {
    read_shard(file);
    FAIL() << "read " << file;
  } catch (const ShardError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
  }
}

TEST_F(ShardTest, TruncatedShardIsNamed) {
  write_shard(path("t.h5"), ShardMeta{}, some_samples());
  fs::resize_file(path("t.h5"), fs::file_size(path("t.h5")) * 2 / 3);
  expect_named_error(path("t.h5"), "");
}

TEST_F(ShardTest, GarbageFileIsNamed) {
  std::FILE* f = std::fopen(path("g.h5").c_str(), "w");
  std::fputs("not hdf5 at all", f);
  std::fclose(f);
  expect_named_error(path("g.h5"), "not an HDF5 file");
}

// A shard's root attributes, claiming `samples` samples, and no dataset.
void write_shard_attributes(nn::Hdf5File& f, int64_t samples) {
  f.set_attr("format", std::string("mushroom-selfplay"));
  f.set_attr("format_version", int64_t(kShardFormatVersion));
  f.set_attr("model_id", std::string("m"));
  f.set_attr("config_hash", std::string("h"));
  f.set_attr("generator_seed", int64_t(1));
  f.set_attr("games", int64_t(1));
  f.set_attr("samples", samples);
}

TEST_F(ShardTest, SchemaViolationsAreNamed) {
  auto samples = some_samples();
  samples[2].policy = {{3, 0.5f}};  // does not sum to 1
  write_shard(path("p.h5"), ShardMeta{}, samples);
  expect_named_error(path("p.h5"), "sums to");

  samples = some_samples();
  samples[1].policy = {{kPolicySize + 5, 1.0f}};
  write_shard(path("m.h5"), ShardMeta{}, samples);
  expect_named_error(path("m.h5"), "move index out of range");

  {
    nn::Hdf5File f = nn::Hdf5File::create(path("x.h5"));
    write_shard_attributes(f, 2);
    f.close();
  }
  expect_named_error(path("x.h5"), "missing dataset '/digits'");
}

// A samples attribute far beyond the datasets' rows (issue 101's fuzzing:
// it sized every sample before any dataset was read, so a corrupt count
// asked for terabytes) is refused as the first field's wrong shape.
TEST_F(ShardTest, ASampleCountBeyondTheDatasetsIsRefusedNotAllocated) {
  {
    nn::Hdf5File f = nn::Hdf5File::create(path("n.h5"));
    write_shard_attributes(f, int64_t(1) << 40);
    const std::vector<uint8_t> digits(2 * kCells, 1);
    f.write("/digits", {2, uint64_t(kCells)}, digits.data());
    f.close();
  }
  expect_named_error(path("n.h5"), "dataset '/digits' has the wrong shape for 1099511627776 rows");
}

}  // namespace
}  // namespace mushroom::selfplay
