// `mushroom run` says where it is and how long it has left: every stage's
// progress line with its own estimate and the whole run's, in a log (no
// terminal: plain lines), progress.json for programs and the dashboard; a
// resumed run's estimate starts from the stages its records timed.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const char* const kDot = " \u00b7 ";

ShellResult run_tiny(const fs::path& dir, int generations) {
  return run_shell(std::string("'") + MUSHROOM_BIN + "' run --config testdata/configs/tiny.toml --dir " + dir.string() +
                   " --parallel 1 --generations " + std::to_string(generations));
}

// The lines of `text` that hold every one of `words`.
std::vector<std::string> lines_with(const std::string& text, const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const std::string& line : split_lines(text)) {
    bool all = true;
    for (const std::string& w : words) all = all && line.find(w) != std::string::npos;
    if (all) out.push_back(line);
  }
  return out;
}

TEST(RunProgress, EachStageSaysWhatItAndTheRunHaveLeft) {
  const fs::path dir = fs::path("build-test-tmp") / "run-progress";
  fs::remove_all(dir);
  const ShellResult first = run_tiny(dir, 2);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string& out = first.output;
  // Not a terminal: plain lines, no carriage return, no escape code.
  EXPECT_EQ(out.find('\r'), std::string::npos);
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  for (const std::string generation : {"generation 1 of 2", "generation 2 of 2"})
    for (const std::string stage : {"self-play", "train", "gate"}) {
      // Its estimate once it has one, time stamped as every log line...
      const auto estimates = lines_with(out, {generation + kDot + stage + " ", ", left about ", kDot + std::string("run: ")});
      EXPECT_FALSE(estimates.empty()) << generation << " " << stage << ":\n" << out;
      for (const std::string& line : estimates)
        EXPECT_TRUE(std::regex_search(line, std::regex("^20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:]{8} generation"))) << line;
      // ...and its length when it ends.
      EXPECT_FALSE(lines_with(out, {generation + kDot + stage + " ", "done in "}).empty()) << stage << ":\n" << out;
    }
  // In generation 1 the stages to come are not timed yet; in generation 2
  // every stage is, and the run's estimate is whole.
  EXPECT_FALSE(lines_with(out, {"generation 1 of 2" + std::string(kDot) + "self-play", "train, gate not timed yet"}).empty())
      << out;
  EXPECT_FALSE(lines_with(out, {"generation 2 of 2" + std::string(kDot) + "self-play", "run: left about "}).empty()) << out;

  // The records keep each stage's length; progress.json says the run has finished.
  const nlohmann::json record = nlohmann::json::parse(read_file((dir / "metrics" / "gen-0001.json").string()));
  for (const char* stage : {"self-play", "train", "gate"})
    EXPECT_GT(record["stage_seconds"].value(stage, -1.0), 0.0) << stage << ": " << record.dump();
  const nlohmann::json progress = nlohmann::json::parse(read_file((dir / "progress.json").string()));
  EXPECT_EQ(progress["schema"], "mushroom-run-progress");
  EXPECT_EQ(progress["state"], "finished");
  EXPECT_NE(read_file((dir / "dashboard.html").string()).find("id=\"run-now\" data-state=\"finished\""),
            std::string::npos);

  // A resume for one more generation: its first line already knows the
  // whole run's time, from the records of the two generations before.
  const ShellResult more = run_tiny(dir, 3);
  ASSERT_EQ(more.exit_code, 0) << more.output;
  const auto lines = lines_with(more.output, {"generation 3 of 3" + std::string(kDot) + "self-play"});
  ASSERT_FALSE(lines.empty()) << more.output;
  EXPECT_NE(lines.front().find("self-play" + std::string(kDot) + "elapsed 0:00:00, left about "), std::string::npos)
      << lines.front();
  EXPECT_NE(lines.front().find("run: left about "), std::string::npos) << lines.front();
  EXPECT_EQ(lines.front().find("not timed yet"), std::string::npos) << lines.front();
}

// --progress=off and --quiet: the run says nothing of its progress, yet
// keeps progress.json for the dashboard.
TEST(RunProgress, OffSaysNothingButTheDashboardStillKnows) {
  const fs::path dir = fs::path("build-test-tmp") / "run-progress-off";
  fs::remove_all(dir);
  const ShellResult r = run_shell(std::string("'") + MUSHROOM_BIN + "' run --config testdata/configs/tiny.toml --dir " +
                                  dir.string() + " --parallel 1 --generations 1 --progress=off");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("generation 1 of 1" + std::string(kDot)), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("run: left"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("run complete"), std::string::npos) << r.output;  // the log lines stay
  EXPECT_TRUE(fs::exists(dir / "progress.json"));
  fs::remove_all(dir);
  const ShellResult quiet = run_shell(std::string("'") + MUSHROOM_BIN + "' run --config testdata/configs/tiny.toml --dir " +
                                      dir.string() + " --parallel 1 --generations 1 --quiet");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
  for (const char* said : {"== generation", "left about", "run: left", "run complete", "plot: "})
    EXPECT_EQ(quiet.output.find(said), std::string::npos) << said << ": quiet says only errors, warnings and results\n"
                                                         << quiet.output;
}

}  // namespace
}  // namespace mushroom
