#include "run/run_clock.h"

#include <gtest/gtest.h>

#include <thread>

#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::run {
namespace {

namespace fs = std::filesystem;

// Overlapping intervals (roles side by side) count once; a pause between
// sessions does not count; a malformed file is named.
TEST(RunClock, TheRunsTimeIsTheUnionOfItsSessions) {
  const fs::path dir = test_scratch_dir() / "run_clock_test";
  fs::remove_all(dir);
  EXPECT_EQ(run_clock_seconds(dir), 0.0);
  fs::create_directories(dir / "clock");
  write_file_atomic((dir / "clock" / "a.txt").string(), "1000 1100\n");  // a first session: 100 s
  write_file_atomic((dir / "clock" / "b.txt").string(), "2000 2300\n");  // after a pause: the loop...
  write_file_atomic((dir / "clock" / "c.txt").string(), "2100 2400\n");  // ...and a role beside it: 400 s
  write_file_atomic((dir / "clock" / "d.txt").string(), "2150 2200\n");  // inside both
  write_file_atomic((dir / "clock" / "e.txt.tmp").string(), "garbage");  // a write in progress: ignored
  EXPECT_DOUBLE_EQ(run_clock_seconds(dir), 500.0);
  {
    RunClock clock(dir);  // a live session adds its own time as it goes
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    clock.touch();
    const double with_live = run_clock_seconds(dir);
    EXPECT_GE(with_live, 501.0);
    EXPECT_LT(with_live, 510.0);
  }
  write_file_atomic((dir / "clock" / "f.txt").string(), "3000 2000\n");
  try {
    run_clock_seconds(dir);
    ADD_FAILURE() << "no error for an interval that ends before it starts";
  } catch (const RunClockError& e) {
    EXPECT_NE(std::string(e.what()).find("f.txt: not a run-clock interval"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

// A process stopped for longer than kPauseSeconds between two log lines
// (SIGSTOP, a suspended job): the pause is left out, the time before and
// after counts.
TEST(RunClock, ALongStopIsNotTheRunsTime) {
  const fs::path dir = test_scratch_dir() / "run_clock_pause";
  fs::remove_all(dir);
  double now = 5000;
  RunClock clock(dir, [&] { return now; });
  now = 5100;
  clock.touch();  // 100 s of work
  now = 5100 + RunClock::kPauseSeconds - 10;
  clock.touch();  // a quiet stretch shorter than a pause still counts
  EXPECT_DOUBLE_EQ(run_clock_seconds(dir), 100 + RunClock::kPauseSeconds - 10);
  now += RunClock::kPauseSeconds + 60;
  clock.touch();  // back after a long stop: a new interval from here
  now += 40;
  clock.touch();  // 40 s more
  EXPECT_DOUBLE_EQ(run_clock_seconds(dir), 100 + RunClock::kPauseSeconds - 10 + 40);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::run
