#include "util/version.h"

#include <gtest/gtest.h>

#include <regex>

#include "util/log_stamp.h"

namespace mushroom {
namespace {

// The commit is a short hash (with -dirty for changed files) or "unknown"
// outside git; the build type is CMake's.
TEST(Version, NamesTheCommitAndTheBuildType) {
  EXPECT_TRUE(std::regex_match(build_commit(), std::regex("[0-9a-f]{7,40}(-dirty)?|unknown"))) << build_commit();
  EXPECT_FALSE(build_type().empty());
  EXPECT_EQ(build_version(), "mushroom " + build_commit() + " (" + build_type() + ")");
}

TEST(LogStamp, IsTheUtcTimeToTheSecond) {
  const std::regex stamp("20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9]");
  EXPECT_TRUE(std::regex_match(log_time_stamp(), stamp)) << log_time_stamp();
  const std::string line = stamped("generation 3");
  EXPECT_TRUE(std::regex_match(line.substr(0, 19), stamp)) << line;
  EXPECT_EQ(line.substr(19), " generation 3");
}

}  // namespace
}  // namespace mushroom
