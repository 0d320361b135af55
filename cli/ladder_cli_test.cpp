// `mushroom ladder` end to end: killed with SIGKILL in the middle and run
// again, and its errors on bad input.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "ladder/ladder.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const char* const kPrograms[] = {"--program", "builtin:greedy", "--program", "builtin:random",
                                 "--program", "ab=builtin:alphabeta:depth=1,solver=false"};

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::absolute(fs::path("build-test-tmp") / name);
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

int lines_in(const fs::path& file) {
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

ShellResult ladder(const fs::path& dir, const std::string& more) {
  std::string command = std::string("'") + MUSHROOM_BIN + "' ladder --dir '" + dir.string() + "'";
  for (const char* arg : kPrograms) command += std::string(" '") + arg + "'";
  return run_shell(command + " " + more);
}

TEST(LadderCli, AKilledLadderResumesWithoutLosingOrRepeatingGames) {
  const fs::path dir = temp_dir("ladder-kill");
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stderr);
    freopen("/dev/null", "w", stdout);
    std::vector<const char*> argv = {MUSHROOM_BIN, "ladder", "--dir", dir.c_str()};
    for (const char* arg : kPrograms) argv.push_back(arg);
    for (const char* arg : {"--boards", "6", "--time-ms", "2000", "--parallel", "2"}) argv.push_back(arg);
    argv.push_back(nullptr);
    execv(MUSHROOM_BIN, const_cast<char* const*>(argv.data()));
    _exit(127);
  }
  // Kill it once five games are in the file.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int status = 0;
  bool killed = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (lines_in(dir / "games.csv") >= 6) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(killed) << "the ladder finished before it could be killed";
  const size_t before = read_ladder_games(dir.string(), false).size();
  EXPECT_GE(before, 5u);
  // And a line torn in the middle of its write, as a kill there would leave.
  std::ofstream(dir / "games.csv", std::ios::app) << "greedy,random,5,99";

  const ShellResult again = ladder(dir, "--boards 6 --time-ms 2000 --parallel 2");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string expected_note = std::to_string(36 - before) + " games to play, " + std::to_string(before) +
                                    " already played";
  EXPECT_NE(again.output.find(expected_note), std::string::npos) << again.output.substr(0, 400);
  // Valid (the reader rejects a malformed or repeated game) and complete.
  const std::vector<GameRecord> games = read_ladder_games(dir.string(), false);
  EXPECT_EQ(games.size(), 36u);
  EXPECT_NE(again.output.find("36 games; anchor greedy = 0"), std::string::npos) << again.output;
  EXPECT_TRUE(fs::exists(dir / "ladder.html"));
  EXPECT_TRUE(fs::exists(dir / "ratings.txt"));
  EXPECT_NE(read_file((dir / "ratings.txt").string()).find("head to head"), std::string::npos);
  EXPECT_NE(read_file((dir / "ladder.html").string()).find("<h2>Head to head</h2>"), std::string::npos);
  // A third run has nothing left to play.
  const ShellResult third = ladder(dir, "--boards 6 --time-ms 2000 --parallel 2");
  EXPECT_NE(third.output.find("0 games to play, 36 already played"), std::string::npos) << third.output;
}

TEST(LadderCli, BadInputIsAnErrorThatNamesIt) {
  const fs::path dir = temp_dir("ladder-bad");
  const std::string bin = std::string("'") + MUSHROOM_BIN + "' ladder --dir '" + dir.string() + "' ";
  auto expect_error = [&](const std::string& args, const std::string& part) {
    const ShellResult r = run_shell(bin + args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.output.find(part), std::string::npos) << args << "\n" << r.output;
  };
  expect_error("--program builtin:greedy --program builtin:nosuchbot", "nosuchbot");
  expect_error("--program builtin:greedy --models 'no/such/dir/gen-*.h5'", "no file matches");
  expect_error("--program builtin:greedy --program x=builtin:alphabeta:eval=missing.eval", "missing.eval");
  expect_error("--program builtin:greedy --program 'some command'", "NAME=COMMAND");
  expect_error("--report", "holds no ladder");
  // A malformed games file, named with its line.
  const ShellResult ok = run_shell(bin + "--program builtin:greedy --program builtin:random --boards 1");
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  std::ofstream(dir / "games.csv", std::ios::app) << "greedy,random,zero,1,0,0,1,,,x.log\n";
  expect_error("--report", "games.csv:4: field board is 'zero'");
}

}  // namespace
}  // namespace mushroom
