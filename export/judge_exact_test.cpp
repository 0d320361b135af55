// The committed submission run exactly as the judge runs it (docs/submission.md,
// "The judge"): models/submission.cpp written as main.cpp in a fresh folder
// beside models/data.bin, compiled with the judge's command line (less its
// Boost paths, which we do not use) and started as `./main NYPC` under a
// 1 GiB address-space limit. It plays complete games against greedy and
// against itself from both seats, from its own folder and from another;
// survives hostile input streams; stops on FINISH; refuses to play without
// its weights when told to; and builds warning-free with every compiler
// Debian offers, including every standard header it uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "agents/greedy_agent.h"
#include "arena/referee.h"
#include "arena/subprocess.h"
#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"
#include "mushroom/movegen.h"
#include "mushroom/position_io.h"
#include "nnue/network.h"
#include "protocol/bot_session.h"
#include "protocol/game_log.h"
#include "util/rng.h"
#include "util/scratch_folder_test_util.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

// The judge's compile line (gcc 13.3 there, Debian's g++ here) and run line.
const char* const kJudgeFlags = "-std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native";
const char* const kJudgeRun = "./main NYPC";
// The contest's memory limit, as an address-space limit in KiB (ulimit -v).
const char* const kMemoryLimitKib = "1048576";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// `./main NYPC` (or `bin NYPC` for a path), started from `cwd` under the
// memory limit.
std::string judged_command(const fs::path& cwd, const std::string& bin = kJudgeRun, const std::string& args = "") {
  return "cd " + quoted(cwd) + " && ulimit -v " + kMemoryLimitKib + " && exec " + bin + (args.empty() ? "" : " " + args);
}

class JudgeExact : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new ScratchFolder("mushroom-judge");
    dir_ = fs::absolute(folder_->dir());
    fs::create_directories(dir_ / "elsewhere");
    fs::copy_file("models/submission.cpp", dir_ / "main.cpp");
    fs::copy_file("models/data.bin", dir_ / "data.bin");
    build_ = new ShellResult(run_shell("cd " + quoted(dir_) + " && g++ " + kJudgeFlags + " -o main main.cpp"));
  }
  static void TearDownTestSuite() {
    delete folder_;
    delete build_;
  }
  static ScratchFolder* folder_;
  static fs::path dir_;
  static ShellResult* build_;
};
ScratchFolder* JudgeExact::folder_ = nullptr;
fs::path JudgeExact::dir_;
ShellResult* JudgeExact::build_ = nullptr;

TEST_F(JudgeExact, CompilesWithTheJudgesCommandLineWithoutAWarning) {
  EXPECT_EQ(build_->exit_code, 0) << build_->output;
  EXPECT_EQ(build_->output, "") << "g++ " << kJudgeFlags << " warned";
}

// Replays a finished game's moves from its start: every one legal.
void expect_legal_game(const GameLog& log, const std::string& what) {
  ASSERT_FALSE(log.aborted_by) << what << ": forfeit by " << player_name(*log.aborted_by) << ": " << log.abort_reason;
  ASSERT_TRUE(log.finished) << what;
  Position pos = log.start;
  for (const LoggedMove& m : log.moves) {
    const char* why = nullptr;
    ASSERT_TRUE(pos.is_legal(m.move, &why)) << what << ": " << to_string(m.move) << ": " << why;
    pos.apply(m.move);
  }
  EXPECT_TRUE(pos.game_over()) << what;
  EXPECT_EQ(pos.score(kFirst), log.score_first) << what;
}

struct JudgedGame {
  std::string what;
  std::string command[2];
  RefereeResult result;
  std::string stderr_text[2];
};

// Plays the games two at a time at the judge's clock (10 s CPU bank), each
// program's stderr kept.
void play(std::vector<JudgedGame>& games, const fs::path& log_dir, const Position& start) {
  std::vector<std::thread> threads;
  for (size_t i = 0; i < games.size(); ++i) {
    threads.emplace_back([&, i] {
      RefereeConfig config;
      config.clock = ClockKind::kCpu;
      config.require_weights = false;  // the judge sets nothing
      for (int side = 0; side < 2; ++side)
        config.stderr_path[side] = (log_dir / ("game" + std::to_string(i) + "." + std::to_string(side) + ".stderr")).string();
      games[i].result = referee_game(games[i].command[0], games[i].command[1], start, config);
      for (int side = 0; side < 2; ++side) games[i].stderr_text[side] = read_file(config.stderr_path[side]);
    });
    if (threads.size() == 2 || i + 1 == games.size()) {
      for (auto& t : threads) t.join();
      threads.clear();
    }
  }
}

TEST_F(JudgeExact, PlaysCompleteGamesAgainstGreedyAndItselfFromBothSeats) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  const std::string greedy = "exec '" + std::string(MUSHROOM_BIN) + "' bot --agent greedy";
  const std::string here = judged_command(dir_);
  // The same program started from another folder: data.bin is beside it.
  const std::string elsewhere = judged_command(dir_ / "elsewhere", quoted(dir_ / "main"), "NYPC");
  std::vector<JudgedGame> games = {
      {"judged bot first against greedy", {here, greedy}, {}, {}},
      {"judged bot second against greedy", {greedy, here}, {}, {}},
      {"judged bot against itself started elsewhere", {here, elsewhere}, {}, {}},
      {"judged bot started elsewhere against itself", {elsewhere, here}, {}, {}},
  };
  play(games, dir_, random_board(4301));
  for (const JudgedGame& g : games) {
    expect_legal_game(g.result.log, g.what);
    for (int side = 0; side < 2; ++side) {
      if (g.command[side] == greedy) {
        EXPECT_EQ(g.result.outcome(), side == 0 ? -1 : 1) << g.what << ": greedy won";
        continue;
      }
      const std::string& err = g.stderr_text[side];
      EXPECT_EQ(err.find("NYPC"), std::string::npos) << g.what << err;  // the judge's argument is taken quietly
      EXPECT_NE(err.find("bot: weights: " + (dir_ / "data.bin").string()), std::string::npos) << g.what << err;
      EXPECT_EQ(err.find("error"), std::string::npos) << g.what << err;
    }
  }
}

// The protocol by hand, as the official tool speaks it: the bot moves first
// against greedy; every line on its stdout is OK or a legal move; FINISH
// ends the process by itself, with exit 0, and nothing more on stdout.
TEST_F(JudgeExact, FinishEndsTheProcessPromptlyAndStdoutHoldsOnlyOkAndMoves) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  Subprocess bot(judged_command(dir_), (dir_ / "finish.stderr").string());
  std::string line;
  ASSERT_TRUE(bot.write_line("READY FIRST"));
  ASSERT_EQ(bot.read_line(line, 3000), Subprocess::ReadStatus::kLine);
  ASSERT_EQ(line, "OK");
  Position pos = random_board(4302);
  ASSERT_TRUE(bot.write_line(format_init_line(pos)));
  int bank = 10000;
  while (!pos.game_over()) {
    if (pos.to_move() == kFirst) {
      const auto t0 = std::chrono::steady_clock::now();
      ASSERT_TRUE(bot.write_line("TIME " + std::to_string(bank) + " 10000"));
      ASSERT_EQ(bot.read_line(line, bank + 1000), Subprocess::ReadStatus::kLine) << read_file((dir_ / "finish.stderr").string());
      bank -= int(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      const auto words = split_words(line);
      const auto move = parse_move_words(words, 0);
      ASSERT_TRUE(move && words.size() == 4) << "stray output: '" << line << "'";
      const char* why = nullptr;
      ASSERT_TRUE(pos.is_legal(*move, &why)) << line << ": " << why;
      pos.apply(*move);
    } else {
      const Move reply = greedy_move(pos);
      pos.apply(reply);
      ASSERT_TRUE(bot.write_line("OPP " + to_string(reply) + " 0"));
    }
  }
  const auto finish_sent = std::chrono::steady_clock::now();
  ASSERT_TRUE(bot.write_line("FINISH"));
  ASSERT_TRUE(bot.wait_exit(2000)) << "still running 2 s after FINISH (its stdin still open)";
  const double exit_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - finish_sent).count();
  EXPECT_EQ(bot.exit_description(), "exit 0");
  EXPECT_EQ(bot.read_line(line, 100), Subprocess::ReadStatus::kClosed) << "after FINISH: '" << line << "'";
  std::printf("exited %.1f ms after FINISH\n", exit_ms);
}

// Each hostile stream is fed from a file (so it may hold any bytes and end
// anywhere): the bot exits by itself with status 0, within the time its
// TIME lines allow, and prints nothing on stdout but OK and moves.
struct StreamOutcome {
  std::vector<std::string> out;
  bool exited = false;
  std::string exit;
};

StreamOutcome feed(const fs::path& bot_dir, const fs::path& dir, const std::string& name, const std::string& bytes) {
  const fs::path input = dir / (name + ".in");
  write_file_atomic(input.string(), bytes);
  Subprocess bot(judged_command(bot_dir, std::string(kJudgeRun) + " < " + quoted(input)), (dir / (name + ".stderr")).string());
  StreamOutcome o;
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto status = bot.read_line(line, 1000);
    if (status == Subprocess::ReadStatus::kLine) o.out.push_back(line);
    else if (status != Subprocess::ReadStatus::kTimeout) break;
  }
  o.exited = bot.wait_exit(1000);
  o.exit = bot.exit_description();
  return o;
}

void expect_clean(const StreamOutcome& o, const std::string& what) {
  EXPECT_TRUE(o.exited) << what << ": still running";
  EXPECT_EQ(o.exit, "exit 0") << what;
  for (const std::string& l : o.out) {
    if (l == "OK") continue;
    const auto words = split_words(l);
    const auto move = parse_move_words(words, 0);
    EXPECT_TRUE(move && words.size() == 4 && l == to_string(*move) && (move->is_pass() || move->on_board()))
        << what << ": stray output '" << l << "'";
  }
}

TEST_F(JudgeExact, HostileStreamsNeverCrashHangOrPrintStrayOutput) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  const fs::path d = dir_ / "streams";
  fs::create_directories(d);
  const Position start = random_board(4303);
  const std::string init = format_init_line(start);
  // A valid game prefix: we move second, and the opponent only passes (never
  // two passes in a row, since we do not pass with rectangles left).
  const std::string pass = "OPP -1 -1 -1 -1 0";
  const std::vector<std::string> valid = {"READY SECOND", init, pass, "TIME 1000 1000", pass, "TIME 900 1000",
                                          pass, "TIME 800 1000", "FINISH"};
  std::string transcript;
  for (const std::string& l : valid) transcript += l + "\n";

  // EOF at every line boundary and in the middle of every line.
  for (size_t cut = 0, at = 0; cut < valid.size(); at += valid[cut].size() + 1, ++cut) {
    for (const size_t end : {at, at + valid[cut].size() / 2}) {
      const std::string what = "EOF after byte " + std::to_string(end);
      const StreamOutcome o = feed(dir_, d, "eof" + std::to_string(end), transcript.substr(0, end));
      expect_clean(o, what);
      // OK, then at most one move per TIME line it saw (whole or cut).
      const auto times = std::count_if(valid.begin(), valid.begin() + cut + 1,
                                       [](const std::string& l) { return l.rfind("TIME", 0) == 0; });
      EXPECT_LE(o.out.size(), size_t(1 + times)) << what;
    }
  }
  {  // The whole valid game: OK, then one legal move per TIME.
    const StreamOutcome o = feed(dir_, d, "valid", transcript);
    expect_clean(o, "the valid stream");
    ASSERT_EQ(o.out.size(), 4u);
    EXPECT_EQ(o.out[0], "OK");
  }
  std::string crlf;
  for (const std::string& l : valid) crlf += l + "\r\n";
  std::string spaced;
  for (const std::string& l : valid) spaced += "  \t" + l + " \t \n\n";
  Rng rng(4304);
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += char(rng.uniform(256));
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {"crlf", crlf},
      {"spaces", spaced},
      {"unknown", "HELLO\nready first\nPING 1 2\nREADY FIRST\n" + init + "\nNOPE\nTIME 1000 1000\nFINISH\n"},
      {"bad_time", "READY FIRST\n" + init + "\nTIME abc 1000\nTIME 99999999999999999999999 1\nTIME -5 -5\nTIME 1e9 0\n"
                   "TIME\nTIME 0 0\nFINISH\n"},
      {"bad_opp", "READY SECOND\n" + init + "\nOPP 1 2 x 4 5\nOPP 99 99 99 99 0\nOPP -1 -1 -1\nOPP 0 0 0 0 0 0 0\n"
                  "OPP 0 0 9 16 0\nTIME 1000 1000\nFINISH\n"},
      {"bad_init", "READY FIRST\nINIT 123\nTIME 1000 1000\nINIT " + std::string(170, 'x') + "\nTIME 1000 1000\n" +
                       "INIT" + std::string(10, ' ') + "\n" + init + "0\nTIME 1000 1000\nFINISH\n"},
      {"zero_digits", "READY FIRST\nINIT 00000000000000000 00000000000000000 00000000000000000 00000000000000000 "
                      "00000000000000000 00000000000000000 00000000000000000 00000000000000000 00000000000000000 "
                      "00000000000000000\nTIME 1000 1000\nFINISH\n"},
      {"out_of_order", "TIME 1000 1000\nOPP 0 0 0 1 0\nREADY FIRST\nREADY SECOND\n" + init + "\n" + init +
                           "\nTIME 1000 1000\nTIME 1000 1000\nOPP -1 -1 -1 -1 0\nOPP -1 -1 -1 -1 0\nTIME 1000 1000\nFINISH\n"},
      {"garbage", garbage},
      {"ready_then_garbage", "READY FIRST\n" + garbage + "\nFINISH\n"},
      {"long_line", "READY FIRST\n" + std::string(1 << 20, '7') + "\n" + init + "\nTIME 1000 1000\n"},
      {"nul_bytes", std::string("READY\0 FIRST\nREADY FIRST\n", 25) + init + "\nTIME 1000\0 1000\nFINISH\n"},
      {"empty", ""},
  };
  for (const auto& [name, bytes] : hostile) {
    const StreamOutcome o = feed(dir_, d, name, bytes);
    expect_clean(o, name);
  }
}

// With --require-weights (or $MUSHROOM_REQUIRE_WEIGHTS) and no usable
// data.bin, the bot exits non-zero before OK, naming what is wrong; the
// referee (arena, ladder) sets the variable, so the game is a forfeit that
// says why. Without either, it plays on with the hand evaluation, as it
// must on the judge.
TEST_F(JudgeExact, MissingOrCorruptWeightsAreFatalWhenRequired) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  const fs::path lone = dir_ / "lone";
  fs::create_directories(lone);
  fs::copy_file(dir_ / "main", lone / "main");
  write_file_atomic((lone / "in.txt").string(), "READY FIRST\n" + format_init_line(random_board(4305)) + "\nTIME 1000 1000\nFINISH\n");
  const std::string run = "cd " + quoted(lone) + " && ";

  const ShellResult required = run_shell(run + "./main NYPC --require-weights < in.txt");
  EXPECT_EQ(required.exit_code, 2) << required.output;
  EXPECT_EQ(required.output.find("OK"), std::string::npos) << required.output;
  EXPECT_NE(required.output.find("cannot find data.bin"), std::string::npos) << required.output;
  EXPECT_NE(required.output.find((lone / "data.bin").string()), std::string::npos) << required.output;
  const ShellResult by_env = run_shell(run + "MUSHROOM_REQUIRE_WEIGHTS=1 ./main NYPC < in.txt");
  EXPECT_EQ(by_env.exit_code, 2) << by_env.output;
  EXPECT_EQ(by_env.output.find("OK"), std::string::npos) << by_env.output;

  std::string corrupt = read_file((dir_ / "data.bin").string());
  corrupt[corrupt.size() / 2] ^= 0x55;
  write_file_atomic((lone / "data.bin").string(), corrupt);
  const ShellResult bad = run_shell(run + "./main --require-weights < in.txt");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find((lone / "data.bin").string() + ": checksum mismatch"), std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find("OK"), std::string::npos) << bad.output;

  // Weights that load but are another export's (a data.bin left from an
  // earlier model): named with both fingerprints, fatal when required, and
  // played with, loudly, when not.
  nnue::Network other_model = nnue::parse_network(read_file((dir_ / "data.bin").string()), "data.bin");
  other_model.out_bias[0] += 0.5f;  // another model of the same size: it loads
  write_file_atomic((lone / "data.bin").string(), nnue::serialize_network(other_model));
  const ShellResult other = run_shell(run + "./main NYPC --require-weights < in.txt");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_EQ(other.output.find("OK"), std::string::npos) << other.output;
  EXPECT_NE(other.output.find((lone / "data.bin").string() + " holds other weights than this source was exported with"),
            std::string::npos)
      << other.output;
  const ShellResult other_judged = run_shell(run + "MUSHROOM_REQUIRE_WEIGHTS=0 ./main NYPC < in.txt");
  EXPECT_EQ(other_judged.exit_code, 0) << other_judged.output;
  EXPECT_NE(other_judged.output.find("bot: warning: " + (lone / "data.bin").string() + " holds other weights"),
            std::string::npos)
      << other_judged.output;
  EXPECT_NE(other_judged.output.find("OK"), std::string::npos) << other_judged.output;
  write_file_atomic((lone / "data.bin").string(), corrupt);

  // Not required: it says so and plays.
  const ShellResult judged = run_shell(run + "MUSHROOM_REQUIRE_WEIGHTS=0 ./main NYPC < in.txt");
  EXPECT_EQ(judged.exit_code, 0) << judged.output;
  EXPECT_NE(judged.output.find("playing with the hand evaluation"), std::string::npos) << judged.output;
  EXPECT_NE(judged.output.find("OK"), std::string::npos) << judged.output;

  // Under the referee's default, the game is forfeited with the reason.
  RefereeConfig config;
  config.stderr_path[0] = (lone / "ref.stderr").string();
  const RefereeResult r = referee_game(run + "exec ./main NYPC", std::string("exec '") + MUSHROOM_BIN + "' bot --agent greedy",
                                       random_board(4306), config);
  ASSERT_TRUE(r.log.aborted_by);
  EXPECT_EQ(*r.log.aborted_by, kFirst);
  EXPECT_NE(r.log.abort_reason.find("before OK"), std::string::npos) << r.log.abort_reason;
  EXPECT_NE(r.log.abort_reason.find("checksum mismatch"), std::string::npos) << r.log.abort_reason;

  const ShellResult usage = run_shell(run + "./main --eval-positions");
  EXPECT_EQ(usage.exit_code, 2) << usage.output;
  EXPECT_NE(usage.output.find("--eval-positions needs a FILE"), std::string::npos) << usage.output;
}

// The official tool's setting.ini mode runs EXEC lines as written, from the
// ini's folder: `./main NYPC` works as it does there.
TEST_F(JudgeExact, TheOfficialToolsSettingIniRunsExecLinesAsWritten) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  write_file_atomic((dir_ / "INPUT").string(), format_position(random_board(4307)));
  write_file_atomic((dir_ / "setting.ini").string(), "INPUT=INPUT\nLOG=log.txt\nEXEC1=./main NYPC\nEXEC2=" +
                                                         std::string(MUSHROOM_BIN) + " bot --agent greedy\n");
  const ShellResult r = run_shell("'" + std::string(MUSHROOM_BIN) + "' arena --clock cpu --setting " + quoted(dir_ / "setting.ini"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SCOREFIRST "), std::string::npos) << r.output;
  expect_legal_game(parse_game_log(read_file((dir_ / "log.txt").string())), "setting.ini game");
}

// Every compiler Debian offers builds the file warning-free under the
// judge's flags: clang with libstdc++ (as g++ uses), and clang with libc++,
// whose headers include far less of each other, so a missing standard
// include shows up there as it would under the judge's newer gcc.
TEST_F(JudgeExact, ClangBuildsItWithoutAWarningOnBothStandardLibraries) {
  if (run_shell("command -v clang++").exit_code != 0) GTEST_SKIP() << "clang++ is not installed (scripts/test.sh installs it)";
  const std::string flags = std::string(kJudgeFlags) + " -fsyntax-only main.cpp";
  const ShellResult libstdcxx = run_shell("cd " + quoted(dir_) + " && clang++ " + flags);
  EXPECT_EQ(libstdcxx.exit_code, 0) << libstdcxx.output;
  EXPECT_EQ(libstdcxx.output, "") << "clang++ with libstdc++ warned";
  if (!fs::exists("/usr/lib/llvm-14/include/c++/v1/vector") && !fs::exists("/usr/include/c++/v1/vector"))
    GTEST_SKIP() << "libc++ is not installed (scripts/test.sh installs libc++-14-dev)";
  const ShellResult libcxx = run_shell("cd " + quoted(dir_) + " && clang++ -stdlib=libc++ " + flags);
  EXPECT_EQ(libcxx.exit_code, 0) << libcxx.output;
  EXPECT_EQ(libcxx.output, "") << "clang++ with libc++ warned";
}

// include-what-you-use finds no standard header that the file uses without
// including. Its suggestions of the library's private headers (bits/, ext/,
// the intrinsics' sub-headers) are covered by the public ones included.
TEST_F(JudgeExact, IncludesEveryStandardHeaderItUses) {
  if (run_shell("command -v include-what-you-use").exit_code != 0)
    GTEST_SKIP() << "include-what-you-use is not installed (scripts/test.sh installs iwyu)";
  const ShellResult r = run_shell("cd " + quoted(dir_) + " && include-what-you-use " + kJudgeFlags + " main.cpp");
  std::vector<std::string> missing;
  bool in_adds = false;
  for (const std::string& line : split_lines(r.output)) {
    if (line.find("should add these lines:") != std::string::npos) in_adds = true;
    else if (line.empty() || line.find("should remove these lines:") != std::string::npos) in_adds = false;
    else if (in_adds && line.rfind("#include <", 0) == 0) {
      const std::string header = line.substr(10, line.find('>') - 10);
      const bool private_header = header.rfind("bits/", 0) == 0 || header.rfind("ext/", 0) == 0 ||
                                  header.find("intrin.h") != std::string::npos;
      if (!private_header) missing.push_back(line);
    }
  }
  EXPECT_NE(r.output.find("main.cpp"), std::string::npos) << "include-what-you-use did not analyse it: " << r.output;
  std::string listed;
  for (const std::string& m : missing) listed += m + "\n";
  EXPECT_TRUE(missing.empty()) << "standard headers used but not included:\n" << listed;
}

}  // namespace
}  // namespace mushroom
