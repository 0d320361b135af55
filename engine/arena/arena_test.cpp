#include "arena/arena.h"

#include <gtest/gtest.h>

#include <chrono>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arena/program_fingerprint.h"
#include "arena/seed_bots.h"
#include "mushroom/board_gen.h"
#include "util/text.h"

namespace mushroom {
namespace {

std::string bot(const std::string& name) { return "sh testdata/bots/" + name + ".sh"; }

// Plays `broken` (as A) against the passing bot on one board, both sides.
ArenaReport play_broken(const std::string& broken, int time_ms = 1000) {
  ArenaConfig config;
  config.command[0] = bot(broken);
  config.command[1] = bot("pass");
  config.boards = 1;
  config.referee.time_ms = time_ms;
  config.referee.ready_timeout_ms = 500;
  config.parallel = 2;
  std::ostringstream progress;
  return run_arena(config, progress);
}

void expect_forfeits(const ArenaReport& report, const std::string& reason_start) {
  ASSERT_EQ(report.games.size(), 2u);
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.forfeiter(), 0) << g.result.log.abort_reason;
    EXPECT_EQ(g.a_outcome(), -1);
    EXPECT_EQ(g.result.log.abort_reason.rfind(reason_start, 0), 0u) << g.result.log.abort_reason;
  }
}

TEST(Arena, CrashingBotForfeitsWithItsExitStatus) {
  expect_forfeits(play_broken("crash"), "crashed (exit 3) before a move");
}

// The reason quotes the program's last stderr line whether or not a log
// folder keeps its stderr (before, only with --log-dir).
TEST(Arena, ACrashQuotesTheProgramsStderrWithOrWithoutALogFolder) {
  const std::string said = "crashed (exit 3) before a move; its stderr: crash.sh: asked for a move, exiting with status 3";
  for (const bool logs : {false, true}) {
    ArenaConfig config;
    config.command[0] = bot("crash");
    config.command[1] = bot("pass");
    config.boards = 1;
    config.parallel = 2;
    if (logs) {
      config.log_dir = "build-test-tmp/crash-stderr";
      std::filesystem::remove_all(config.log_dir);
    }
    std::ostringstream progress;
    const ArenaReport report = run_arena(config, progress);
    ASSERT_EQ(report.games.size(), 2u);
    for (const ArenaGame& g : report.games) EXPECT_EQ(g.result.log.abort_reason, said) << "log folder: " << logs;
  }
}

// A program that exits at start-up gives the same reason on every path:
// whether it is gone before READY is written or only before OK is read.
TEST(Arena, AProgramThatDiesAtStartIsQuotedOnEveryPath) {
  const Position start = random_board(5);
  RefereeConfig rc;
  rc.ready_timeout_ms = 2000;
  for (int game = 0; game < 8; ++game) {
    // Half the games give it time to exit before READY is written.
    const std::string dies = std::string(game % 2 ? "" : "sleep 0.05; ") + "echo 'data.bin: 12 bytes, truncated' >&2; exit 2";
    const RefereeResult r = referee_game(dies, bot("pass"), start, rc);
    ASSERT_TRUE(r.log.aborted_by.has_value());
    EXPECT_EQ(*r.log.aborted_by, kFirst);
    EXPECT_TRUE(r.start_failed);
    EXPECT_FALSE(r.answered_ok[kFirst]);
    const std::string& reason = r.log.abort_reason;
    EXPECT_EQ(reason.rfind("crashed (exit 2) before ", 0), 0u) << reason;
    EXPECT_NE(reason.find("; its stderr: data.bin: 12 bytes, truncated"), std::string::npos) << reason;
  }
}

// cutechess and fastchess stop at once on an engine that cannot start; so
// does the arena, naming the cause, instead of forfeiting every game.
TEST(Arena, AProgramThatCannotStartStopsTheMatch) {
  ArenaConfig config;
  config.command[0] = "./no-such-bot";
  config.command[1] = bot("pass");
  config.label[0] = "new";
  config.label[1] = "pass";
  config.boards = 20;
  config.parallel = 2;
  config.log_dir = "build-test-tmp/no-such-bot";
  std::filesystem::remove_all(config.log_dir);
  std::ostringstream progress;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    run_arena(config, progress);
    FAIL() << "the match was played: " << progress.str();
  } catch (const ProgramStartError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("program A (new: ./no-such-bot) could not start: crashed (exit 127) before"), std::string::npos)
        << what;
    EXPECT_NE(what.find("not found"), std::string::npos) << what;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  // No game is recorded: once the program exists, the same command resumes.
  EXPECT_EQ(read_file(config.log_dir + "/games.csv"), std::string(kGamesFileHeader) + "\n");
}

// The README's rate block exports into the same folder again and reruns
// the match: the games of the earlier build must not be reported as the
// new one's. The fingerprint names what changed.
TEST(Arena, AResumeByAnotherBuildUnderTheSameCommandIsRefused) {
  const std::filesystem::path dir = "build-test-tmp/fingerprint";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  std::filesystem::copy_file("testdata/bots/pass.sh", dir / "sub" / "main.sh");
  write_file_atomic((dir / "sub" / "data.bin").string(), "weights 1");
  ArenaConfig config;
  config.command[0] = "cd " + (dir / "sub").string() + " && exec sh ./main.sh NYPC";
  config.command[1] = bot("pass");
  config.label[0] = "new";
  config.label[1] = "pass";
  config.boards = 1;
  config.log_dir = (dir / "match").string();
  std::ostringstream progress;
  ASSERT_EQ(run_arena(config, progress).games.size(), 2u);
  const std::string fingerprint = program_fingerprint(config.command[0]);
  EXPECT_NE(fingerprint.find((dir / "sub" / "main.sh").string() + "@"), std::string::npos) << fingerprint;
  EXPECT_NE(fingerprint.find((dir / "sub" / "data.bin").string() + "@"), std::string::npos) << fingerprint;
  EXPECT_EQ(program_fingerprint(config.command[0]), fingerprint);  // stable
  // Same bytes: the resume goes on.
  config.boards = 2;
  EXPECT_EQ(run_arena(config, progress).resumed, 2);
  // A new export into the same folder: refused, naming the file.
  write_file_atomic((dir / "sub" / "data.bin").string(), "weights 2");
  config.boards = 3;
  try {
    run_arena(config, progress);
    FAIL() << "the old build's games were taken for the new one's";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("was played by another build of A (new): " + (dir / "sub" / "data.bin").string() + " changed"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(read_games_file(config.log_dir + "/games.csv", false).size(), 4u);  // nothing played or lost
}

TEST(Arena, GarbageOutputForfeits) {
  expect_forfeits(play_broken("garbage"), "unparsable output 'hello world'");
}

TEST(Arena, IllegalMovesForfeitWithTheRule) {
  const ArenaReport report = play_broken("illegal");
  expect_forfeits(report, "illegal move 0 0 0 0: sum is ");
  EXPECT_NE(report.games[0].result.log.abort_reason.find(", not 10"), std::string::npos);
  expect_forfeits(play_broken("out_of_range"), "illegal move 0 0 10 17: rectangle out of range");
}

TEST(Arena, SlowBotForfeitsOnTime) {
  expect_forfeits(play_broken("slow", 1000), "timeout waiting for a move");
}

TEST(Arena, SilentBotForfeitsAtReady) { expect_forfeits(play_broken("no_ok"), "timeout waiting for OK"); }

// The hanging bot starts `sleep 600`: the arena must kill the whole process
// group, carry on, and leave no sleeper behind.
TEST(Arena, HangingBotIsKilledAndTheArenaFinishes) {
  const auto t0 = std::chrono::steady_clock::now();
  expect_forfeits(play_broken("hang", 800), "timeout waiting for a move");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 10.0);
  int sleepers = 0;
  if (DIR* proc = opendir("/proc")) {
    while (dirent* entry = readdir(proc)) {
      std::ifstream cmdline(std::string("/proc/") + entry->d_name + "/cmdline");
      std::string text((std::istreambuf_iterator<char>(cmdline)), {});
      if (text == std::string("sleep\0600\0", 10)) ++sleepers;
    }
    closedir(proc);
  }
  EXPECT_EQ(sleepers, 0);
}

TEST(Arena, TwoPassesEndAGameInADraw) {
  ArenaConfig config;
  config.command[0] = bot("pass");
  config.command[1] = bot("pass");
  config.boards = 2;
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  ASSERT_EQ(report.games.size(), 4u);
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.a_outcome(), 0);
    EXPECT_EQ(g.result.log.moves.size(), 2u);
    EXPECT_TRUE(g.result.log.finished);
  }
  EXPECT_NE(format_report(config, report).find(config.label[0] + " total:         0 W, 4 D, 0 L"), std::string::npos);
}

TEST(Arena, PairsShareABoardWithSidesSwapped) {
  ArenaConfig config;
  config.command[0] = bot("pass");
  config.command[1] = bot("pass");
  config.boards = 3;
  config.seed = 77;
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  ASSERT_EQ(report.games.size(), 6u);
  for (int b = 0; b < 3; ++b) {
    const ArenaGame& g1 = report.games[size_t(2 * b)];
    const ArenaGame& g2 = report.games[size_t(2 * b + 1)];
    EXPECT_TRUE(g1.a_first);
    EXPECT_FALSE(g2.a_first);
    EXPECT_TRUE(g1.result.log.start == g2.result.log.start);
    EXPECT_TRUE(g1.result.log.start == random_board(arena_board_seed(77, b)));
  }
  EXPECT_FALSE(report.games[0].result.log.start == report.games[2].result.log.start);
  // Every game's progress line ends with the time run and the time left, as the ladder's do.
  std::istringstream lines(progress.str());
  int estimated = 0;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_NE(line.find("   elapsed "), std::string::npos) << line;
    estimated += line.find(", left about ") != std::string::npos;
  }
  EXPECT_EQ(estimated, 6) << progress.str();
}

TEST(Arena, SprtStopsEarlyWhenOneSideAlwaysWins) {
  ArenaConfig config;
  config.command[0] = bot("pass");
  config.command[1] = bot("illegal");  // forfeits every game
  config.label[0] = "passer";
  config.label[1] = "cheater";
  config.boards = 100;
  config.sprt = Sprt{0, 50};
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  EXPECT_EQ(report.sprt_result, "H1 accepted");
  EXPECT_LT(report.games.size(), 40u);
  const std::string text = format_report(config, report);
  EXPECT_NE(text.find("forfeits by cheater: " + std::to_string(report.games.size())), std::string::npos) << text;
  EXPECT_NE(text.find("x illegal move"), std::string::npos) << text;
  EXPECT_NE(text.find("SPRT elo0=0.00 elo1=50.00"), std::string::npos) << text;
}

TEST(Arena, PinRunsEachGameOnOneCore) {
  ArenaConfig config;
  config.command[0] = bot("affinity");
  config.command[1] = bot("affinity");
  config.boards = 1;
  config.pin = true;
  config.log_dir = "build-test-tmp/pin";
  std::filesystem::remove_all(config.log_dir);  // a log folder resumes its match
  std::ostringstream progress;
  run_arena(config, progress);
  for (const char* file : {"game-0000.first.stderr", "game-0000.second.stderr", "game-0001.first.stderr"})
    EXPECT_EQ(read_file(config.log_dir + "/" + file), "Cpus_allowed_list:\t0\n") << file;
}

TEST(SeedBots, SeedGreedyIsExtractedAtRunTimeAndPlays) {
  try {
    find_seeds_dir();
  } catch (const std::runtime_error& e) {
    GTEST_SKIP() << "seed 000 is not beside this checkout (" << e.what() << ")";
  }
  const std::string dir = "build-test-tmp/seed";
  const std::string path = extract_seed_greedy(dir);
  const std::string code = read_file(path);
  EXPECT_NE(code.find("def calculateMove"), std::string::npos);
  EXPECT_EQ(code.find("\xEC\xBD\x94\xEB\x93\x9C:"), std::string::npos);  // none of the prose
  RefereeConfig rc;
  const RefereeResult r = referee_game("python3 " + path, bot("pass"), random_board(12), rc);
  EXPECT_FALSE(r.log.aborted_by.has_value()) << r.log.abort_reason;
  EXPECT_GT(r.log.score_first, 0);
  EXPECT_TRUE(r.log.finished);
}

}  // namespace
}  // namespace mushroom
