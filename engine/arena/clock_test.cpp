// The arena's two clocks on bots whose wall and CPU time differ by design
// (paced_bot_main.cpp): a sleeper, which waits without computing, and a
// burner, which computes on two threads at once.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <vector>

#include <sstream>
#include <string>

#include "arena/arena.h"
#include "arena/cpu_affinity.h"
#include "arena/cpu_clock.h"
#include "arena/referee.h"
#include "mushroom/board_gen.h"

namespace mushroom {
namespace {

const std::string kSleeper = std::string(PACED_BOT) + " 200 0 1";
// Through a pipe, so the burner is a grandchild of the arena's shell: the
// whole process tree is charged.
const std::string kBurner = std::string(PACED_BOT) + " 0 100 2 | cat";

// burner_ms: the burner's own bank (0: time_ms).
RefereeResult play(ClockKind clock, int time_ms, int wall_limit_ms = 0, int burner_ms = 0) {
  RefereeConfig config;
  config.time_ms = time_ms;
  config.seat_time_ms[1] = burner_ms;
  config.clock = clock;
  config.move_wall_limit_ms = wall_limit_ms;
  config.max_turns = 12;
  return referee_game(kSleeper, kBurner, random_board(7, BoardMode::kUniform), config);
}

// The milliseconds charged for each of one player's moves.
std::vector<int> charged(const RefereeResult& result, Player p) {
  std::vector<int> ms;
  for (const auto& m : result.log.moves)
    if (m.player == p) ms.push_back(m.ms);
  return ms;
}

TEST(Clock, WallClockChargesSleepingAndOneThreadsTime) {
  const RefereeResult result = play(ClockKind::kWall, 60000);
  ASSERT_FALSE(result.log.aborted_by) << result.log.abort_reason;
  ASSERT_EQ(result.log.moves.size(), 12u);
  for (int ms : charged(result, kFirst)) EXPECT_GE(ms, 195) << "the sleeper's sleep is charged";
  for (int ms : charged(result, kSecond)) EXPECT_GE(ms, 95);
}

TEST(Clock, CpuClockChargesEveryThreadOfTheTreeAndNotSleep) {
  const RefereeResult result = play(ClockKind::kCpu, 60000);
  ASSERT_FALSE(result.log.aborted_by) << result.log.abort_reason;
  ASSERT_EQ(result.log.moves.size(), 12u);
  for (int ms : charged(result, kFirst)) EXPECT_LE(ms, 80) << "sleeping costs no CPU time";
  for (int ms : charged(result, kSecond)) {
    EXPECT_GE(ms, 190) << "two threads of 100 ms each";
    EXPECT_LE(ms, 400);
  }
}

TEST(Clock, ASleeperOutlivesASmallBankOnlyOnTheCpuClock) {
  // 6 moves of 200 ms sleep: over a 1,000 ms bank on the wall clock. The
  // burner gets a bank of its own that a busy machine cannot use up first.
  const RefereeResult wall = play(ClockKind::kWall, 1000, 0, 60000);
  ASSERT_TRUE(wall.log.aborted_by);
  EXPECT_EQ(*wall.log.aborted_by, kFirst);
  EXPECT_EQ(wall.log.abort_reason.rfind("timeout", 0), 0u) << wall.log.abort_reason;
  // The burner spends 200 ms of CPU a move: 6 moves need 1,200 ms.
  const RefereeResult cpu = play(ClockKind::kCpu, 1500);
  EXPECT_FALSE(cpu.log.aborted_by) << cpu.log.abort_reason;
}

TEST(Clock, TheCpuClockStillStopsAnIdleProgram) {
  const RefereeResult result = play(ClockKind::kCpu, 60000, 100);
  ASSERT_TRUE(result.log.aborted_by);
  EXPECT_EQ(*result.log.aborted_by, kFirst);
  EXPECT_NE(result.log.abort_reason.find("no move within 100 ms of wall time"), std::string::npos)
      << result.log.abort_reason;
}

TEST(Clock, ABurnerRunsOutOfCpuTimeBeforeWallTime) {
  // Six moves of two 100 ms threads need 1,200 ms of CPU time: over 700 ms,
  // though their wall time (about 600 ms on an idle machine) would fit.
  const RefereeResult cpu = play(ClockKind::kCpu, 700);
  ASSERT_TRUE(cpu.log.aborted_by);
  EXPECT_EQ(*cpu.log.aborted_by, kSecond);
  EXPECT_EQ(cpu.log.abort_reason.rfind("timeout", 0), 0u) << cpu.log.abort_reason;
}

// /proc/PID/stat is read without an ifstream, which throws when the process
// exits mid-read: a live process gives its line, a reaped one and a pid
// that was never there give "", never an exception.
TEST(Clock, ProcStatOfALiveProcessIsItsLineAndOfAGoneOneIsEmpty) {
  const std::string self = std::to_string(getpid());
  const std::string text = proc_stat_text(self);
  EXPECT_EQ(text.rfind(self + " (", 0), 0u) << text;
  EXPECT_NE(text.rfind(')'), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ProcStat own;
  ASSERT_TRUE(read_proc_stat(self, own));
  EXPECT_EQ(own.pgrp, getpgrp());
  EXPECT_EQ(own.state, 'R');  // reading its own stat, it runs
  EXPECT_EQ(proc_stat_text(std::to_string(child)), "");
  ProcStat gone;
  EXPECT_FALSE(read_proc_stat(std::to_string(child), gone));
  EXPECT_EQ(proc_stat_text("0"), "");
  EXPECT_EQ(proc_stat_text("not-a-pid"), "");
}

TEST(Clock, ParseClockNamesTheBadValue) {
  EXPECT_EQ(parse_clock("cpu"), ClockKind::kCpu);
  EXPECT_EQ(parse_clock("wall"), ClockKind::kWall);
  try {
    parse_clock("gpu");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'gpu'"), std::string::npos);
  }
}

}  // namespace
}  // namespace mushroom

namespace mushroom {
namespace {

// Time odds (--b-time-ms): B's bank is its own in both seats. A burner of
// 200 ms a move runs out of a 500 ms bank on its third move, whichever seat
// it holds, while the same program as A, with a minute, plays on.
TEST(Clock, TimeOddsGiveBItsOwnBankInBothSeats) {
  ArenaConfig config;
  config.command[0] = config.command[1] = std::string(PACED_BOT) + " 0 200 1";
  config.boards = 1;
  config.referee.time_ms = 60000;
  config.referee.clock = ClockKind::kCpu;
  config.b_time_ms = 500;
  config.parallel = 1;
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  ASSERT_EQ(report.games.size(), 2u);
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.forfeiter(), 1) << (g.a_first ? "B second: " : "B first: ") << g.result.log.abort_reason;
    EXPECT_NE(g.result.log.abort_reason.find("timeout"), std::string::npos) << g.result.log.abort_reason;
  }
  EXPECT_NE(format_report(config, report).find("time bank 60000 ms for A, 500 ms for B"), std::string::npos)
      << format_report(config, report);
}

}  // namespace
}  // namespace mushroom

// --pin's cores come from the process's CPU mask: under a narrower mask
// (taskset, Slurm, a cgroup) only its cores are named. The mask is set on
// a thread of its own, which leaves the test process's alone.
TEST(CpuAffinity, PinnedSlotsStayInsideTheCpuMask) {
  const std::vector<int> all = mushroom::allowed_cpus();
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  std::vector<int> narrowed;
  std::thread([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(all.back(), &set);
    ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
    narrowed = mushroom::allowed_cpus();
  }).join();
  EXPECT_EQ(narrowed, std::vector<int>{all.back()});
}
