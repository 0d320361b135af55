// Where the shipped files are found (util/data_roots.h, util/shipped_file.h),
// for a binary inside its build tree: the working folder, then
// $MUSHROOM_DATA, then the source tree. The installed prefix's share/mushroom
// is checked by CTest InstallStaging (scripts/install-staging-test.sh).
#include "util/data_roots.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "util/scratch_folder_test_util.h"
#include "util/shipped_file.h"

namespace fs = std::filesystem;

namespace mushroom {
namespace {

// Runs each test from an empty scratch folder with $MUSHROOM_DATA unset, and
// restores both after it. CTest starts the tests in the source tree.
class DataRootsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = fs::current_path();
    unsetenv("MUSHROOM_DATA");
    fs::create_directories(folder_.dir() / "empty");
    fs::current_path(folder_.dir() / "empty");
  }
  void TearDown() override {
    fs::current_path(source_);
    unsetenv("MUSHROOM_DATA");
  }
  // Writes an empty FILE under ROOT (folders made) and returns its path.
  static fs::path touch(const fs::path& root, const std::string& file) {
    fs::create_directories((root / file).parent_path());
    std::ofstream(root / file) << "";
    return root / file;
  }
  fs::path source_;
  ScratchFolder folder_{"mushroom-data-roots"};
};

TEST_F(DataRootsTest, FromAnEmptyFolderTheSourceTreeOfTheBuildIsUsed) {
  EXPECT_EQ(find_in_data_roots("models/eval.bin"), (source_ / "models/eval.bin").string());
  EXPECT_EQ(default_eval_path(), (source_ / "models/eval.bin").string());
  EXPECT_EQ(find_config("eval-cpu"), (source_ / "configs/eval-cpu.toml").string());
  EXPECT_EQ(find_config("eval-cpu.toml"), (source_ / "configs/eval-cpu.toml").string());
  EXPECT_EQ(find_config("configs/eval-cpu.toml"), (source_ / "configs/eval-cpu.toml").string());
  EXPECT_EQ(shipped_or_given("models/eval.probcut"), (source_ / "models/eval.probcut").string());
  const std::string origin = defaults_origin();
  EXPECT_EQ(origin.rfind("defaults: " + (source_ / "models/eval.bin").string() + " (the source tree of this build)", 0), 0u)
      << origin;
  EXPECT_NE(origin.find("looked for in order: models/eval.bin in the working folder, $MUSHROOM_DATA (not set), "),
            std::string::npos)
      << origin;
}

TEST_F(DataRootsTest, TheWorkingFolderComesFirstThenMushroomData) {
  const fs::path data = folder_.dir() / "data";
  touch(data, "models/eval.bin");
  touch(data, "configs/mine.toml");
  setenv("MUSHROOM_DATA", data.c_str(), 1);
  EXPECT_EQ(find_in_data_roots("models/eval.bin"), (data / "models/eval.bin").string());
  EXPECT_EQ(find_config("mine"), (data / "configs/mine.toml").string());
  EXPECT_NE(defaults_origin().find("defaults: " + (data / "models/eval.bin").string() + " ($MUSHROOM_DATA)"),
            std::string::npos)
      << defaults_origin();
  // What $MUSHROOM_DATA lacks comes from the next root.
  EXPECT_EQ(find_in_data_roots("models/eval.probcut"), (source_ / "models/eval.probcut").string());
  touch(".", "models/eval.bin");
  EXPECT_EQ(find_in_data_roots("models/eval.bin"), "models/eval.bin");
  EXPECT_EQ(shipped_or_given("models/eval.bin"), "models/eval.bin");
}

TEST_F(DataRootsTest, NothingFoundNamesEveryPlaceAndTheVariable) {
  const fs::path data = folder_.dir() / "data";
  fs::create_directories(data);
  setenv("MUSHROOM_DATA", data.c_str(), 1);
  try {
    find_shipped_file("MUSHROOM_NO_SUCH_VARIABLE", "models/none.bin", "name another as FILE");
    FAIL() << "found models/none.bin";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    for (const std::string& part :
         {std::string("no models/none.bin: looked for $MUSHROOM_NO_SUCH_VARIABLE (not set), "),
          std::string("models/none.bin in the working folder, "),
          (data / "models/none.bin").string() + " ($MUSHROOM_DATA), ",
          (source_ / "models/none.bin").string() + " (the source tree of this build)",
          std::string("set MUSHROOM_DATA to a folder that holds models/ and configs/, or name another as FILE")})
      EXPECT_NE(message.find(part), std::string::npos) << "no '" << part << "' in: " << message;
  }
  unsetenv("MUSHROOM_DATA");
  try {
    find_config("no-such-config");
    FAIL() << "found configs/no-such-config.toml";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--config no-such-config: no such file, nor a shipped config of that name: "
                                         "looked for configs/no-such-config.toml in the working folder, "
                                         "$MUSHROOM_DATA (not set), "),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(shipped_or_given("models/none.bin"), "models/none.bin");  // its reader says it is missing
}

TEST_F(DataRootsTest, MushroomDataThatIsNotAFolderIsRefusedByName) {
  const fs::path file = touch(folder_.dir(), "a-file");
  setenv("MUSHROOM_DATA", file.c_str(), 1);
  try {
    find_in_data_roots("models/eval.bin");
    FAIL() << "a file was taken as $MUSHROOM_DATA";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("$MUSHROOM_DATA is " + file.string() + ", which is not a folder"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mushroom
