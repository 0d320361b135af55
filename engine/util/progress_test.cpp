// The progress reporter on a fake clock: no test here waits or times anything.
#include "util/progress.h"

#include <gtest/gtest.h>

#include <sstream>

#include "util/log_level.h"
#include "util/text.h"

namespace mushroom {
namespace {

// A clock the test moves by hand.
struct FakeClock {
  double now = 1000;
  Progress::Clock clock() {
    return [this] { return now; };
  }
};

// The pieces of a terminal's line between carriage returns.
std::vector<std::string> split_on_carriage_returns(const std::string& line) {
  std::vector<std::string> out;
  size_t from = 0;
  for (;;) {
    const size_t r = line.find('\r', from);
    out.push_back(line.substr(from, r == std::string::npos ? std::string::npos : r - from));
    if (r == std::string::npos) return out;
    from = r + 1;
  }
}

// The characters a piece shows: UTF-8 code points, "\x1b[K" left out.
int columns(std::string text) {
  for (size_t at; (at = text.find("\x1b[K")) != std::string::npos;) text.erase(at, 3);
  int n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Progress::Options style(ProgressStyle s, double line_seconds = 10) {
  Progress::Options o;
  o.style = s;
  o.line_seconds = line_seconds;
  o.stamp = false;
  return o;
}

// At a steady rate the estimate is the time the items left take at that
// rate, from the first item on, and it shrinks to zero.
TEST(Progress, TheEstimateIsRightForASteadyRate) {
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kLine), t.clock());
  p.begin("train", "steps");
  p.set_total(400);
  EXPECT_TRUE(std::isnan(p.snapshot().stage_left)) << "no estimate before the first item";
  for (int done = 1; done <= 400; ++done) {
    t.now += 0.25;  // four steps a second
    p.add();
    const ProgressSnapshot s = p.snapshot();
    ASSERT_NEAR(s.stage_left, (400 - done) * 0.25, 1e-9) << done;
    ASSERT_NEAR(s.rate, 4.0, 1e-9);
  }
  EXPECT_NEAR(p.end(), 100.0, 1e-9);
  EXPECT_NE(out.str().find("train 1/400 steps"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("4.0 steps/s"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("left about 0:01:40"), std::string::npos) << out.str();  // 399 steps at 4 a second
  EXPECT_NE(out.str().find("train 400/400 steps \u00b7 done in 0:01:40"), std::string::npos) << out.str();
}

// Never negative: more items than announced, a stage slower than its
// history, a run past its plan.
TEST(Progress, TheEstimateIsNeverNegative) {
  EXPECT_EQ(seconds_left(10, 5, -3), 0.0);
  EXPECT_EQ(seconds_left(-1, 5, 3), 0.0);
  EXPECT_TRUE(std::isnan(seconds_left(10, 0, 3)));
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kOff), t.clock());
  RunEstimate run({"gate"}, 1);
  run.add("gate", 30);
  p.attach_run(&run);
  p.begin("gate", "games");
  t.now += 100;  // far longer than the 30 s it took before
  EXPECT_EQ(p.snapshot().stage_left, 0.0);
  EXPECT_EQ(p.snapshot().run_left.seconds, 0.0);
  p.set_total(4);
  for (int k = 0; k < 6; ++k) {
    t.now += 1;
    p.add();
    EXPECT_GE(p.snapshot().stage_left, 0.0);
    EXPECT_GE(p.snapshot().run_left.seconds, 0.0);
  }
}

// A log, CI or Slurm gets plain lines: no carriage return, no escape code,
// the first once an estimate is known, then at most one every line_seconds,
// and a last one at the stage's end.
TEST(Progress, ANonTerminalStreamHoldsNoCarriageReturnNorEscapeCode) {
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kLine, 10), t.clock());
  p.set_position("generation 1 of 2");
  p.begin("self-play", "games");
  p.set_total(100);
  for (int k = 0; k < 100; ++k) {
    t.now += 1;
    p.advance_to(k + 1, "mean length 40.0 plies");
    if (k == 50) p.note("a log line of the stage");
  }
  p.end();
  const std::string text = out.str();
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  const std::vector<std::string> lines = split_lines(text);
  // The first estimate, one every 10 s over the 100 s (the note stands for
  // one), and the end.
  EXPECT_GE(lines.size(), 10u) << text;
  EXPECT_LE(lines.size(), 12u) << text;
  EXPECT_EQ(lines.front(),
            "generation 1 of 2 \u00b7 self-play 1/100 games \u00b7 mean length 40.0 plies \u00b7 1.0 games/s \u00b7 "
            "elapsed 0:00:01, left about 0:01:39");
  EXPECT_EQ(lines.back(), "generation 1 of 2 \u00b7 self-play 100/100 games \u00b7 mean length 40.0 plies \u00b7 done in 0:01:40");
}

// On a terminal the line is redrawn in place, and log lines go above it.
TEST(Progress, ATerminalGetsOneLineRedrawnInPlace) {
  FakeClock t;
  std::ostringstream out;
  Progress::Options o = style(ProgressStyle::kTerminal);
  o.width = 40;
  Progress p(out, o, t.clock());
  p.begin("arena", "games");
  p.set_total(4);
  t.now += 5;
  p.add();
  p.note("[1/4] board 0: A wins");
  t.now += 5;
  p.add();
  p.end();
  const std::string text = out.str();
  EXPECT_NE(text.find("\rarena 1/4 games"), std::string::npos) << text;
  EXPECT_NE(text.find("\x1b[K"), std::string::npos) << text;
  EXPECT_NE(text.find("\r\x1b[K[1/4] board 0: A wins\n"), std::string::npos) << text;
  // Cut to the terminal's width: no drawn line wraps.
  for (const std::string& line : split_lines(text))
    for (const std::string& drawn : split_on_carriage_returns(line)) EXPECT_LE(columns(drawn), 39) << drawn;
  EXPECT_NE(text.find("arena 2/4 games \u00b7 done in 0:00:10\n"), std::string::npos) << text;
}

// A resumed run knows the lengths of the stages its records kept: its very
// first line says what is left of the whole run.
TEST(Progress, AResumedRunsEstimateCountsTheStagesAlreadyDone) {
  RunEstimate run({"self-play", "train", "gate"}, 3);
  // Generation 1, read back from its record.
  run.add("self-play", 60);
  run.add("train", 10);
  run.add("gate", 30);
  run.at_generation(2);
  RunEstimate::Left left = run.left("self-play", 0, std::nan(""));
  EXPECT_TRUE(left.complete());
  EXPECT_DOUBLE_EQ(left.seconds, 200);  // the rest of generation 2 and all of generation 3
  left = run.left("train", 4, std::nan(""));  // train's own estimate: its mean less its time so far
  EXPECT_DOUBLE_EQ(left.seconds, 6 + 30 + 100);

  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kLine), t.clock());
  p.attach_run(&run);
  p.set_position("generation 2 of 3");
  p.begin("self-play", "games");
  EXPECT_EQ(out.str(), "generation 2 of 3 \u00b7 self-play \u00b7 elapsed 0:00:00, left about 0:01:00 \u00b7 run: left about 0:03:20\n");

  // A fresh run knows none: it says what it knows, and what it does not;
  // self-play's own estimate (10 s done, 50 left) stands for it in the
  // second generation.
  RunEstimate fresh({"self-play", "train", "gate"}, 2);
  left = fresh.left("self-play", 10, 50);
  EXPECT_DOUBLE_EQ(left.seconds, 50 + 60);
  EXPECT_EQ(left.untimed, (std::vector<std::string>{"train", "gate"}));
}

// A stage a resume had begun is timed whole, at this process's pace; one
// that did nothing here is not timed.
TEST(Progress, AStageIsTimedWholeAtItsPace) {
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kOff), t.clock());
  RunEstimate run({"self-play"}, 2);
  p.attach_run(&run);
  p.begin("self-play", "games");
  p.set_total(100, 40);  // 40 games played before the kill
  t.now += 30;
  p.advance_to(70);
  EXPECT_NEAR(p.snapshot().stage_left, 30.0, 1e-9);
  t.now += 30;
  p.advance_to(100);
  EXPECT_NEAR(p.end(), 100.0, 1e-9);  // 60 s for 60 games: 100 s for all 100
  EXPECT_NEAR(run.mean("self-play"), 100.0, 1e-9);
  p.begin("self-play", "games");  // found finished
  p.set_total(100, 100);
  EXPECT_TRUE(std::isnan(p.end()));
  EXPECT_NEAR(run.mean("self-play"), 100.0, 1e-9);
}

TEST(Progress, UntimedStagesMakeTheRunsEstimateALowerBound) {
  ProgressSnapshot s;
  s.active = true;
  s.stage = "self-play", s.unit = "games", s.done = 3, s.total = 8;
  s.elapsed = 30, s.rate = 0.1, s.stage_left = 50;
  s.in_run = true;
  s.run_left = {50, {"train", "gate"}};
  EXPECT_EQ(format_progress_line(s), "self-play 3/8 games \u00b7 6.0 games/min \u00b7 elapsed 0:00:30, left about 0:00:50 \u00b7 "
                                     "run: left at least 0:00:50 (train, gate not timed yet)");
  s.stage_left = std::nan(""), s.rate = std::nan("");
  s.run_left = {0, {"self-play", "train", "gate"}};
  EXPECT_EQ(format_progress_line(s), "self-play 3/8 games \u00b7 elapsed 0:00:30 \u00b7 run: self-play, train, gate not timed yet");
}

// Lines written to the log stream become the reporter's notes; quiet
// drops them.
TEST(Progress, TheLogStreamPassesWholeLines) {
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kTerminal), t.clock());
  {
    ProgressLogStream log(p);
    p.begin("ladder", "games");
    p.set_total(2);
    t.now += 1;
    p.add();
    log << "[1/2] board 0" << ": first wins" << std::endl;
    set_log_level(LogLevel::kQuiet);
    log << "not shown\n";
    set_log_level(LogLevel::kNormal);
    p.cancel();
  }
  EXPECT_NE(out.str().find("\r\x1b[K[1/2] board 0: first wins\n"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("not shown"), std::string::npos) << out.str();
}

TEST(Progress, TheModeIsReadAndChosenByTheStream) {
  EXPECT_EQ(parse_progress_mode("line"), ProgressMode::kLine);
  EXPECT_EQ(progress_style(ProgressMode::kAuto, true), ProgressStyle::kTerminal);
  EXPECT_EQ(progress_style(ProgressMode::kAuto, false), ProgressStyle::kLine);
  EXPECT_EQ(progress_style(ProgressMode::kLine, true), ProgressStyle::kLine);
  EXPECT_EQ(progress_style(ProgressMode::kOff, true), ProgressStyle::kOff);
  try {
    parse_progress_mode("always");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--progress must be auto, line or off, got 'always'");
  }
}

// Calls outside any stage do nothing: the work code reports whether or not
// a stage is under way.
TEST(Progress, CountsOutsideAStageAreIgnored) {
  FakeClock t;
  std::ostringstream out;
  Progress p(out, style(ProgressStyle::kLine), t.clock());
  p.expect(10);
  p.add(3);
  p.set_total(20, 5);
  p.advance_to(4, "loss 0.5");
  p.set_detail("loss 0.4");
  const ProgressSnapshot idle = p.snapshot();
  EXPECT_FALSE(idle.active);
  // Nor are they kept: the snapshot (and so progress.json) shows none of them.
  EXPECT_EQ(idle.done, 0);
  EXPECT_EQ(idle.total, 0);
  EXPECT_EQ(idle.detail, "");
  EXPECT_EQ(out.str(), "");
  {
    ProgressStage stage(p, "gate", "games");
    EXPECT_TRUE(p.snapshot().active);
  }
  EXPECT_FALSE(p.snapshot().active) << "an abandoned stage is cancelled";
}

}  // namespace
}  // namespace mushroom
