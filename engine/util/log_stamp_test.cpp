#include "util/log_stamp.h"

#include <gtest/gtest.h>

namespace mushroom {
namespace {

TEST(LogStamp, ClockTextIsHoursMinutesSeconds) {
  EXPECT_EQ(clock_text(0), "0:00:00");
  EXPECT_EQ(clock_text(247.4), "0:04:07");
  EXPECT_EQ(clock_text(3 * 3600 + 5 * 60 + 9.6), "3:05:10");
}

// The estimate is the pace so far times the work left: 10 items in 100 s,
// 30 left, is 300 s more. Nothing done yet: no estimate to give.
TEST(LogStamp, TimeLeftFollowsThePaceSoFar) {
  EXPECT_EQ(elapsed_and_left(100, 10, 30), "elapsed 0:01:40, left about 0:05:00");
  EXPECT_EQ(elapsed_and_left(100, 10, 0), "elapsed 0:01:40, left about 0:00:00");
  EXPECT_EQ(elapsed_and_left(12, 0, 30), "elapsed 0:00:12");
}

}  // namespace
}  // namespace mushroom
