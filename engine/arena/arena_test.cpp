#include "arena/arena.h"

#include <gtest/gtest.h>

#include <chrono>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <sched.h>
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
      // "sleep\0" "600\0" apart: as one literal, "\060" would be an octal escape.
      if (text == std::string("sleep\0" "600\0", 10)) ++sleepers;
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
  EXPECT_EQ(report.sprt.result, "H1 accepted");
  EXPECT_LT(report.games.size(), 40u);
  const std::string text = format_report(config, report);
  EXPECT_NE(text.find("forfeits by cheater: " + std::to_string(report.games.size())), std::string::npos) << text;
  EXPECT_NE(text.find("x illegal move"), std::string::npos) << text;
  EXPECT_NE(text.find("SPRT elo0=0.00 elo1=50.00"), std::string::npos) << text;
  // A forfeit counts as a loss by the cap in the margins, not as 0.
  EXPECT_NE(text.find("mean margin (passer cells - cheater cells): 4.0 over"), std::string::npos) << text;
}

// A match of the passing bot (A, `a_name`) against `b` under both tests,
// the margin test stopping it and deciding from the first pair on.
ArenaConfig both_tests(const std::string& b, const std::string& a_name, const std::string& b_name, Sprt wdl,
                       double h0, double h1, int boards) {
  ArenaConfig config;
  config.command[0] = bot("pass");
  config.command[1] = bot(b);
  config.label[0] = a_name;
  config.label[1] = b_name;
  config.boards = boards;
  config.sprt = wdl;
  config.margin_sprt = MarginSprt{h0, h1, 0.05, 0.05, /*min_games*/ 0};
  config.stop_on_margin = true;
  return config;
}

// With --sprt-margin the margin test stops the match, and the W/D/L test
// is reported beside it on the same games. B forfeits every game: each
// game counts +cap (4) for A, every pair +4, so the margin test's LLR at two
// pairs is 2 * .1 * 7.9 / (2 * .25 / 2) = 6.32: H1 at 4 games, while the
// W/D/L test (pairs of 1, floored) is at 0.68, undecided.
TEST(Arena, TheMarginTestStopsTheMatchAndBothTestsAreReported) {
  ArenaConfig config = both_tests("illegal", "passer", "cheater", Sprt{0, 15}, 0, 0.1, 100);
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  EXPECT_EQ(report.margin_sprt.result, "H1 accepted");
  EXPECT_EQ(report.margin_sprt.games, 4);
  EXPECT_NEAR(report.margin_sprt.llr, 6.32, 1e-9);
  EXPECT_EQ(report.games.size(), 4u);
  EXPECT_EQ(report.sprt.result, "undecided");
  const std::string text = format_report(config, report);
  for (const std::string line :
       {"mean margin (passer cells - cheater cells): 4.0 over 4 games (a forfeit counts -4 for the side that forfeited)",
        "paired margin per game: 4.00", "capped margin per game (each game clipped to +-4 cells): +4.00",
        "margin SPRT h0=0.00 h1=0.10 cap=4 alpha=0.05 beta=0.05 min-games=0 (capped cells a game): H1 accepted at 4 games (LLR "
        "6.32, bounds [-2.94, 2.94]); it stops the match",
        "SPRT elo0=0.00 elo1=15.00 alpha=0.05 beta=0.05 min-games=0 (W/D/L, pentanomial): undecided after 4 games (LLR 0.68"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  EXPECT_NE(progress.str().find("capped margin +4.00  margin LLR 6.32"), std::string::npos) << progress.str();
  // With the guard of 20 games it decides at the 20th: 10 pairs of +4, LLR
  // 10 * .1 * 7.9 / (2 * .25 / 10) = 158.
  config.margin_sprt->min_games = 20;
  const ArenaReport guarded = run_arena(config, progress);
  EXPECT_EQ(guarded.games.size(), 20u);
  EXPECT_EQ(guarded.margin_sprt.result, "H1 accepted");
  EXPECT_EQ(guarded.margin_sprt.games, 20);
  EXPECT_NEAR(guarded.margin_sprt.llr, 158, 1e-9);
}

// Two passers draw every game 0-0: every pair's capped margin is 0, so the
// margin test's LLR after n pairs is n * .1 * (-.1) / (2 * .25 / n) =
// -.02 n^2, first below -2.944 at 13 pairs. A match broken after 10 games
// and resumed reaches the verdict at the same game as the unbroken one,
// and a decided match run again plays nothing.
TEST(Arena, AResumedMarginTestReachesTheUnbrokenVerdict) {
  const std::filesystem::path dir = "build-test-tmp/margin-resume";
  std::filesystem::remove_all(dir);
  ArenaConfig config = both_tests("pass", "p1", "p2", Sprt{0, 15}, 0, 0.1, 40);
  std::ostringstream progress;
  config.log_dir = (dir / "unbroken").string();
  const ArenaReport unbroken = run_arena(config, progress);
  EXPECT_EQ(unbroken.margin_sprt.result, "H0 accepted");
  EXPECT_EQ(unbroken.margin_sprt.games, 26);
  EXPECT_NEAR(unbroken.margin_sprt.llr, -0.02 * 13 * 13, 1e-9);
  EXPECT_EQ(unbroken.games.size(), 26u);

  config.log_dir = (dir / "broken").string();
  ArenaConfig first_part = config;
  first_part.boards = 5;
  first_part.margin_sprt.reset();
  first_part.sprt.reset();
  first_part.stop_on_margin = false;
  ASSERT_EQ(run_arena(first_part, progress).games.size(), 10u);
  const ArenaReport resumed = run_arena(config, progress);
  EXPECT_EQ(resumed.resumed, 10);
  EXPECT_EQ(resumed.margin_sprt.result, unbroken.margin_sprt.result);
  EXPECT_EQ(resumed.margin_sprt.games, unbroken.margin_sprt.games);
  EXPECT_DOUBLE_EQ(resumed.margin_sprt.llr, unbroken.margin_sprt.llr);
  EXPECT_EQ(resumed.games.size(), 26u);
  const std::string games_csv = read_file(config.log_dir + "/games.csv");
  const ArenaReport again = run_arena(config, progress);
  EXPECT_EQ(again.resumed, 26);
  EXPECT_EQ(again.margin_sprt.result, "H0 accepted");
  EXPECT_EQ(again.margin_sprt.games, 26);
  EXPECT_EQ(read_file(config.log_dir + "/games.csv"), games_csv) << "a decided match played on";
}

// The games of a match, written by hand into its games.csv in the order
// they finished. A forfeit's cells are 0 and 0.
std::string games_csv_of(const std::vector<GameRecord>& records) {
  std::string text = std::string(kGamesFileHeader) + "\n";
  for (const GameRecord& r : records) text += format_game_record(r) + "\n";
  return text;
}
GameRecord finished_game(const std::string& first, const std::string& second, int board, int first_cells,
                         int second_cells, const std::string& forfeit_by = "") {
  GameRecord r;
  r.first = first, r.second = second, r.board = board, r.board_seed = arena_board_seed(1, board);
  r.first_score = first_cells, r.second_score = second_cells;
  r.forfeit_by = forfeit_by;
  r.reason = forfeit_by.empty() ? "" : "illegal move";
  r.outcome = !forfeit_by.empty() ? (forfeit_by == first ? -1 : 1) : (first_cells > second_cells) - (first_cells < second_cells);
  r.log = "game-" + std::to_string(board) + ".log";
  return r;
}

// A resume decides in the order the games finished (games.csv's), with each
// game clipped to the cap. Boards 2 and 3 finished first: p2 forfeits both
// games of board 2 (+4, +4) and p1 wins both of board 3 by 10 cells (+4,
// +4 capped): H1 at 4 games, LLR 2 * .1 * 7.9 / (2 * .25 / 2) = 6.32.
// Then p1 forfeits boards 0 and 1. Read in board order the test would see
// -4, -4 first and accept H0 (LLR -6.48); with the margins uncapped, board
// 3's +10 would keep it undecided at 4 games (LLR 0.15).
TEST(Arena, AResumeDecidesInTheOrderTheGamesFinishedOnCappedMargins) {
  const std::filesystem::path dir = "build-test-tmp/margin-order";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string text = games_csv_of({
      finished_game("p1", "p2", 2, 0, 0, "p2"), finished_game("p2", "p1", 2, 0, 0, "p2"),
      finished_game("p1", "p2", 3, 90, 80), finished_game("p2", "p1", 3, 80, 90),
      finished_game("p1", "p2", 0, 0, 0, "p1"), finished_game("p2", "p1", 0, 0, 0, "p1"),
      finished_game("p1", "p2", 1, 0, 0, "p1"), finished_game("p2", "p1", 1, 0, 0, "p1"),
  });
  write_file_atomic((dir / "games.csv").string(), text);
  ArenaConfig config = both_tests("pass", "p1", "p2", Sprt{0, 15}, 0, 0.1, 4);
  config.log_dir = dir.string();
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  EXPECT_EQ(report.resumed, 8);
  EXPECT_EQ(report.margin_sprt.result, "H1 accepted");
  EXPECT_EQ(report.margin_sprt.games, 4);
  EXPECT_NEAR(report.margin_sprt.llr, 6.32, 1e-9);
  EXPECT_EQ(report.sprt.result, "undecided");
  EXPECT_EQ(report.sprt.games, 8);
  EXPECT_EQ(read_file((dir / "games.csv").string()), text) << "a game was played or lost";
  // The report's margins over all four boards: raw (4 + 10 - 4 - 4) / 4 = 1.5, capped (4 + 4 - 4 - 4) / 4 = 0.
  const std::string report_text = format_report(config, report);
  EXPECT_NE(report_text.find("paired margin per game: 1.50"), std::string::npos) << report_text;
  EXPECT_NE(report_text.find("capped margin per game (each game clipped to +-4 cells): +0.00"), std::string::npos)
      << report_text;
}

// Only the test named to stop the match stops it, and a test that crosses
// a bound first keeps that verdict. B forfeits every game: the W/D/L test
// SPRT(0, 50) (pairs of 1, variance floored at 1/(16 n)) crosses at 3
// pairs, LLR 8 n^2 (s1 - .5)(1.5 - s1) = 4.78; the margin test (3.9, 4) on
// pairs of +4 has LLR .02 n^2 and first crosses at 13 pairs (3.38). The
// match goes on to 26 games, and the W/D/L verdict stays the one at 6.
TEST(Arena, OnlyTheNamedTestStopsTheMatchAndAVerdictStaysAtItsFirstCrossing) {
  ArenaConfig config = both_tests("illegal", "passer", "cheater", Sprt{0, 50}, 3.9, 4, 100);
  std::ostringstream progress;
  const ArenaReport report = run_arena(config, progress);
  EXPECT_EQ(report.games.size(), 26u);
  EXPECT_EQ(report.margin_sprt.result, "H1 accepted");
  EXPECT_EQ(report.margin_sprt.games, 26);
  EXPECT_NEAR(report.margin_sprt.llr, 0.02 * 13 * 13, 1e-9);
  EXPECT_EQ(report.sprt.result, "H1 accepted");
  EXPECT_EQ(report.sprt.games, 6);
  EXPECT_NEAR(report.sprt.llr, 4.7776, 1e-3);
  const std::string text = format_report(config, report);
  EXPECT_NE(text.find("(W/D/L, pentanomial): H1 accepted at 6 games (LLR 4.78, bounds [-2.94, 2.94])\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(capped cells a game): H1 accepted at 26 games (LLR 3.38, bounds [-2.94, 2.94]); it stops the "
                      "match"),
            std::string::npos)
      << text;
  // The other way round: the W/D/L test stops it at 6 games.
  config.stop_on_margin = false;
  const ArenaReport wdl = run_arena(config, progress);
  EXPECT_EQ(wdl.games.size(), 6u);
  EXPECT_EQ(wdl.sprt.result, "H1 accepted");
  EXPECT_EQ(wdl.margin_sprt.result, "undecided");
  // With a guard of 10 games the W/D/L test waits for them: it stops the
  // match at the 10th game (5 pairs: 8 * 25 (s1 - .5)(1.5 - s1)), and a
  // negative guard is refused.
  config.sprt->min_games = 10;
  const ArenaReport guarded = run_arena(config, progress);
  EXPECT_EQ(guarded.games.size(), 10u);
  EXPECT_EQ(guarded.sprt.result, "H1 accepted");
  EXPECT_EQ(guarded.sprt.games, 10);
  const double s1 = score_from_elo(50);
  EXPECT_NEAR(guarded.sprt.llr, 8 * 25 * (s1 - 0.5) * (1.5 - s1), 1e-9);
  EXPECT_NE(format_report(config, guarded).find("min-games=10 (W/D/L, pentanomial): H1 accepted at 10 games"),
            std::string::npos)
      << format_report(config, guarded);
  config.sprt->min_games = -1;
  EXPECT_THROW(run_arena(config, progress), std::invalid_argument);
  config.sprt->min_games = 0;
  // A test set to stop the match must be there.
  config.margin_sprt.reset();
  config.stop_on_margin = true;
  EXPECT_THROW(run_arena(config, progress), std::invalid_argument);
}

// A guard is a setting of the test, not of the match: a match stopped by
// the unguarded W/D/L test at 6 games (B forfeits every game, SPRT(0, 50))
// and resumed with a guard of 10 games reads its 6 games back, plays 4 more
// and decides at the 10th, with the LLR of 5 pairs, 8 * 25 (s1 - .5)(1.5 - s1).
TEST(Arena, AResumeUnderAnotherGuardDecidesByTheNewOne) {
  const std::filesystem::path dir = "build-test-tmp/wdl-guard-resume";
  std::filesystem::remove_all(dir);
  ArenaConfig config = both_tests("illegal", "passer", "cheater", Sprt{0, 50}, 3.9, 4, 100);
  config.stop_on_margin = false;
  config.log_dir = dir.string();
  std::ostringstream progress;
  ASSERT_EQ(run_arena(config, progress).games.size(), 6u);
  config.sprt->min_games = 10;
  const ArenaReport resumed = run_arena(config, progress);
  EXPECT_EQ(resumed.resumed, 6);
  EXPECT_EQ(resumed.games.size(), 10u);
  EXPECT_EQ(resumed.sprt.result, "H1 accepted");
  EXPECT_EQ(resumed.sprt.games, 10);
  const double s1 = score_from_elo(50);
  EXPECT_NEAR(resumed.sprt.llr, 8 * 25 * (s1 - 0.5) * (1.5 - s1), 1e-9);
}

// A games.csv of another pair of programs is refused by name before any
// game is played (here without arena.txt, which would refuse it first).
TEST(Arena, AResumeFromAnotherPairsGamesIsRefusedBeforeAnyGame) {
  const std::filesystem::path dir = "build-test-tmp/margin-other-pair";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ArenaConfig config = both_tests("pass", "p1", "p2", Sprt{0, 15}, 0, 0.1, 3);
  config.log_dir = dir.string();
  GameRecord other;
  other.first = "x1", other.second = "x2", other.board = 0, other.board_seed = arena_board_seed(1, 0);
  const std::string text = std::string(kGamesFileHeader) + "\n" + format_game_record(other) + "\n";
  write_file_atomic((dir / "games.csv").string(), text);
  std::ostringstream progress;
  try {
    run_arena(config, progress);
    FAIL() << "another pair's games were resumed: " << progress.str();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("games.csv:2: a game between x1 and x2, not p1 and p2"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_file((dir / "games.csv").string()), text);
  EXPECT_FALSE(std::filesystem::exists(dir / "game-0000.log"));
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
  // One game at a time: each on the first core this process may use (0
  // unless the suite itself was pinned elsewhere, as by taskset).
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &mask)) ++first;
  ASSERT_LT(first, CPU_SETSIZE);
  const std::string expected = "Cpus_allowed_list:\t" + std::to_string(first) + "\n";
  for (const char* file : {"game-0000.first.stderr", "game-0000.second.stderr", "game-0001.first.stderr"})
    EXPECT_EQ(read_file(config.log_dir + "/" + file), expected) << file;
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
