#include "ladder/ladder.h"
#include "ladder/program_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "arena/stats.h"
#include "mushroom/board_gen.h"
#include "protocol/game_log.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const std::string kGreedy = std::string(PACED_BOT) + " 0 0 1";

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("mushroom-ladder-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  return dir.string();
}

LadderConfig config_for(const std::string& dir) {
  LadderConfig c;
  c.dir = dir;
  c.programs = {{"greedy", kGreedy},
                {"pass", "sh testdata/bots/pass.sh"},
                {"crash", "sh testdata/bots/crash.sh"},
                {"hang", "sh testdata/bots/hang.sh"}};
  c.boards = 2;
  c.referee.time_ms = 300;
  c.referee.ready_timeout_ms = 500;
  c.parallel = 4;
  return c;
}

void expect_error(const std::function<void()>& f, const std::string& part) {
  try {
    f();
    FAIL() << "no error; expected one containing " << part;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Ladder, ARoundRobinRatesEveryProgramAndFaultsOnlyForfeit) {
  const std::string dir = fresh_dir("roundrobin");
  std::ostringstream progress;
  const LadderRunSummary summary = run_ladder(config_for(dir), progress);
  EXPECT_EQ(summary.played, 6 * 2 * 2);  // 6 pairs, 2 boards, both seats
  EXPECT_EQ(summary.already_done, 0);
  const std::vector<GameRecord> games = read_ladder_games(dir, false);
  ASSERT_EQ(games.size(), 24u);
  int crash_forfeits = 0, hang_forfeits = 0;
  for (const GameRecord& g : games) {
    EXPECT_TRUE(fs::exists(fs::path(dir) / g.log)) << g.log;
    crash_forfeits += g.forfeit_by == "crash";
    hang_forfeits += g.forfeit_by == "hang";
  }
  // Crash and hang meet each other too: whoever moves first forfeits there.
  EXPECT_GE(crash_forfeits, 10);
  EXPECT_GE(hang_forfeits, 10);
  const LadderStandings standings = ladder_standings(dir, "pass");
  ASSERT_EQ(standings.rows.size(), 4u);
  EXPECT_EQ(standings.rows[0].name, "greedy");
  EXPECT_EQ(standings.games, 24);
  for (const LadderRow& r : standings.rows) {
    EXPECT_TRUE(r.rating.rated) << r.name;
    EXPECT_EQ(r.games, 12) << r.name;
  }
  // Head to head: every pair met, each from the better ranked side, with
  // the likelihood of superiority from its decisive games.
  ASSERT_EQ(standings.pairs.size(), 6u);
  std::map<std::string, size_t> rank;
  for (size_t i = 0; i < standings.rows.size(); ++i) rank[standings.rows[i].name] = i;
  for (const LadderPair& p : standings.pairs) {
    EXPECT_LT(rank[p.a], rank[p.b]) << p.a << " vs " << p.b;
    EXPECT_EQ(p.wins + p.draws + p.losses, 4) << p.a << " vs " << p.b;
    EXPECT_DOUBLE_EQ(p.los, likelihood_of_superiority(p.wins, p.losses));
    if (p.a == "greedy" && p.b == "pass") {
      EXPECT_EQ(p.wins, 4);
      EXPECT_NEAR(p.los, 0.97725, 1e-5);  // 0.5 (1 + erf(4 / sqrt(8)))
    }
  }
  const std::string h2h = format_head_to_head(standings);
  EXPECT_NE(h2h.find("greedy vs pass"), std::string::npos) << h2h;
  EXPECT_NE(h2h.find("LOS"), std::string::npos) << h2h;
  const std::string table = format_standings(standings);
  EXPECT_NE(table.find("anchor pass = 0"), std::string::npos) << table;
  EXPECT_NE(table.find("first-move advantage"), std::string::npos) << table;
  EXPECT_NE(progress.str().find("forfeits: "), std::string::npos);
  if (!HasFailure()) fs::remove_all(dir);
}

TEST(Ladder, RunningAgainPlaysOnlyNewGamesAndNewPrograms) {
  const std::string dir = fresh_dir("again");
  LadderConfig c = config_for(dir);
  c.programs.resize(2);  // greedy, pass
  std::ostringstream progress;
  EXPECT_EQ(run_ladder(c, progress).played, 4);
  EXPECT_EQ(run_ladder(c, progress).played, 0);
  c.boards = 3;  // one more board
  LadderRunSummary more = run_ladder(c, progress);
  EXPECT_EQ(more.played, 2);
  EXPECT_EQ(more.already_done, 4);
  // A gauntlet of a new program against the two: only its games.
  c.programs.push_back({"greedy2", kGreedy});
  c.gauntlet = "greedy2";
  more = run_ladder(c, progress);
  EXPECT_EQ(more.played, 2 * 3 * 2);
  EXPECT_EQ(read_ladder_games(dir, false).size(), 6u + 12u);
  EXPECT_EQ(read_ladder_programs(dir).size(), 3u);
  fs::remove_all(dir);
}

// A program re-exported under the same name and command: its old games
// are not taken for the new build's; the ladder names the changed file.
TEST(Ladder, AProgramWhoseFilesChangedAfterItsGamesIsRefused) {
  const std::string dir = fresh_dir("fingerprint");
  const fs::path bot_dir = fs::path(dir + "-bot");
  fs::remove_all(bot_dir);
  fs::create_directories(bot_dir);
  fs::copy_file("testdata/bots/pass.sh", bot_dir / "main.sh");
  LadderConfig c = config_for(dir);
  c.programs = {{"greedy", kGreedy}, {"new", "cd " + bot_dir.string() + " && exec sh ./main.sh"}};
  std::ostringstream progress;
  EXPECT_EQ(run_ladder(c, progress).played, 4);
  EXPECT_EQ(run_ladder(c, progress).played, 0);  // the same bytes: nothing to do
  check_ladder_programs(dir, c.programs);  // the same bytes: nothing to refuse
  write_file_atomic((bot_dir / "main.sh").string(), read_file("testdata/bots/pass.sh") + "# rebuilt\n");
  c.boards = 3;
  // The check alone refuses the new build the same way, and writes nothing.
  const std::string fingerprints = read_file(dir + "/fingerprints.txt");
  expect_error([&] { check_ladder_programs(dir, c.programs); }, "program 'new' of the ladder in " + dir +
                                                                    " played its games as another build: ");
  EXPECT_EQ(read_file(dir + "/fingerprints.txt"), fingerprints);
  try {
    run_ladder(c, progress);
    FAIL() << "the old build's games were kept for the new one";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("program 'new' of the ladder in " + dir + " played its games as another build: " +
                                         (bot_dir / "main.sh").string() + " changed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_ladder_games(dir, false).size(), 4u);
  fs::remove_all(dir);
  fs::remove_all(bot_dir);
}

TEST(Ladder, ATornLastLineIsDroppedAndItsGamePlayedAgain) {
  const std::string dir = fresh_dir("torn");
  LadderConfig c = config_for(dir);
  c.programs.resize(2);
  std::ostringstream progress;
  run_ladder(c, progress);
  const std::string path = dir + "/games.csv";
  std::string text = read_file(path);
  // Cut the last line in half, as a kill in the middle of a write would.
  text.resize(text.size() - 12);
  write_file_atomic(path, text);
  EXPECT_EQ(read_ladder_games(dir, false).size(), 3u);
  const LadderRunSummary again = run_ladder(c, progress);
  EXPECT_EQ(again.played, 1);
  EXPECT_EQ(read_ladder_games(dir, false).size(), 4u);
  fs::remove_all(dir);
}

// A ladder made before agents were spelled NAME:key=value,... keeps its
// programs: the old and the new command of one program are one program.
TEST(Ladder, OneProgramInEitherSpellingIsOneProgram) {
  const std::string exe = "'/opt/x/mushroom'";
  EXPECT_EQ(canonical_program_command(exe + " bot --agent 'alphabeta' --opt 'eval=models/a b.bin' --opt 'depth=3'"),
            exe + " bot --agent 'alphabeta:depth=3,eval=models/a b.bin'");
  EXPECT_EQ(canonical_program_command(exe + " bot --agent 'alphabeta:eval=models/a b.bin,depth=3'"),
            exe + " bot --agent 'alphabeta:depth=3,eval=models/a b.bin'");
  EXPECT_EQ(canonical_program_command(exe + " bot --agent 'alphabeta'"), exe + " bot --agent 'alphabeta'");
  EXPECT_EQ(canonical_program_command(exe + " bot --agent 'greedy' --opt 'x=it'\\''s'"),
            exe + " bot --agent 'greedy:x=it'\\''s'");
  // Other commands are themselves.
  const std::vector<std::string> others{"cd sub && exec ./main NYPC", "python3 'bot.py'", exe + " bot --agent",
                                        exe + " bot --agent 'a' --opt"};
  for (const std::string& other : others)
    EXPECT_EQ(canonical_program_command(other), other);
  EXPECT_NE(canonical_program_command(exe + " bot --agent 'alphabeta' --opt 'eval=a.bin'"),
            canonical_program_command(exe + " bot --agent 'alphabeta:eval=b.bin'"));
}

// builtin: programs start mushroom-bot, found beside mushroom, for every
// agent (nn too: no agent needs LibTorch); without it, or when it cannot be
// executed, `mushroom bot` as before. mushroom, which loads LibTorch, took
// 1.1-1.6 s to start, past the judge's 3 s for OK on a loaded machine. Both
// commands are one program to a resumed ladder or arena.
TEST(Ladder, BuiltinProgramsStartMushroomBotBesideMushroom) {
  const fs::path dir = fresh_dir("companion");
  fs::create_directories(dir);
  const std::string self = (dir / "mushroom").string(), companion = (dir / "mushroom-bot").string();
  const std::string agent = "alphabeta:eval=models/eval.bin,probcut=models/eval.probcut";
  const std::string old_command = "'" + self + "' bot --agent '" + agent + "'";
  EXPECT_EQ(builtin_bot_command(self, agent), old_command);  // no mushroom-bot yet
  { std::ofstream(companion) << "#!/bin/sh\n"; }
  fs::permissions(companion, fs::perms::owner_all);
  EXPECT_EQ(builtin_bot_command(self, agent), "'" + companion + "' --agent '" + agent + "'");
  EXPECT_EQ(builtin_bot_command(self, "nn:model=models/default.h5"),
            "'" + companion + "' --agent 'nn:model=models/default.h5'");
  EXPECT_EQ(canonical_program_command(builtin_bot_command(self, agent)), old_command);
  EXPECT_EQ(canonical_program_command("'mushroom-bot' --agent 'greedy'"), "'mushroom' bot --agent 'greedy'");
  EXPECT_EQ(canonical_program_command("'/x/not-mushroom-bot' --agent 'greedy'"), "'/x/not-mushroom-bot' --agent 'greedy'");
  fs::permissions(companion, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(builtin_bot_command(self, agent), old_command);  // not executable
  // resolve_program goes through builtin_bot_command, with this test's own
  // path (no mushroom-bot beside it here).
  EXPECT_EQ(resolve_program("builtin:greedy", dir.string()), builtin_bot_command(self_executable(), "greedy"));
  fs::remove_all(dir);
}

TEST(Ladder, BadInputIsAnErrorThatNamesIt) {
  const std::string dir = fresh_dir("bad");
  LadderConfig c = config_for(dir);
  c.programs.resize(2);
  std::ostringstream progress;
  run_ladder(c, progress);
  // A name that now means another program.
  LadderConfig renamed = c;
  renamed.programs[1].command = "sh testdata/bots/crash.sh";
  expect_error([&] { run_ladder(renamed, progress); }, "program 'pass' of the ladder");
  expect_error([&] { check_ladder_programs(dir, renamed.programs); }, "program 'pass' of the ladder");
  check_ladder_programs(dir, c.programs);  // the programs it was played with
  // Other settings than the games were played under.
  LadderConfig slower = c;
  slower.referee.time_ms = 1000;
  expect_error([&] { run_ladder(slower, progress); }, "  time_ms: played as '300', asked for '1000'");
  LadderConfig gauntlet = c;
  gauntlet.gauntlet = "nobody";
  expect_error([&] { run_ladder(gauntlet, progress); }, "'nobody'");
  LadderConfig bad_name = c;
  bad_name.programs[0].name = "two words";
  expect_error([&] { run_ladder(bad_name, progress); }, "'two words'");
  expect_error([&] { ladder_standings(dir, "nobody"); }, "anchor 'nobody'");
  // A malformed games file names the file and the line.
  const std::string path = dir + "/games.csv";
  std::string text = read_file(path);
  write_file_atomic(path, text + "greedy,pass,x,1,0,0,1,,,games/x.log\n");
  expect_error([&] { read_ladder_games(dir, false); }, "games.csv:6: field board is 'x'");
  write_file_atomic(path, text + split_lines(text)[1] + "\n");
  expect_error([&] { read_ladder_games(dir, false); }, "appears twice");
  write_file_atomic(path, "hello\n");
  expect_error([&] { read_ladder_games(dir, false); }, "not a games file");
  write_file_atomic(path, text + "greedy,stranger,0,1,0,0,1,,,games/x.log\n");
  expect_error([&] { ladder_standings(dir); }, "'stranger'");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom

namespace mushroom {
namespace {

// --boards-file: board b of every pair is the file's board b, recorded with
// board seed 0; the settings name the file, so a ladder resumes only on it.
TEST(Ladder, ABoardsFilesBoardsArePlayedInOrderAndNamedInTheSettings) {
  const std::string dir = fresh_dir("boards-file");
  LadderConfig c;
  c.dir = dir;
  c.programs = {{"greedy", kGreedy}, {"pass", "sh testdata/bots/pass.sh"}};
  c.boards = 2;
  c.referee.time_ms = 300;
  c.parallel = 2;
  c.boards_given = {random_board(501), random_board(502), random_board(503)};
  c.boards_source = "balanced.txt (fnv1a64 0123)";
  std::ostringstream progress;
  EXPECT_EQ(run_ladder(c, progress).played, 4);
  for (const GameRecord& g : read_ladder_games(dir, false)) {
    EXPECT_EQ(g.board_seed, 0u);
    const GameLog log = parse_game_log(read_file((fs::path(dir) / g.log).string()));
    EXPECT_TRUE(log.start == c.boards_given[size_t(g.board)]) << g.board;
  }
  EXPECT_NE(read_file((fs::path(dir) / "ladder.txt").string()).find("boards_file=balanced.txt (fnv1a64 0123)"),
            std::string::npos);
  LadderConfig other = c;
  other.boards_source = "balanced.txt (fnv1a64 4567)";
  EXPECT_THROW(run_ladder(other, progress), std::invalid_argument);
  LadderConfig too_many = c;
  too_many.boards = 4;
  try {
    run_ladder(too_many, progress);
    FAIL() << "played more boards than the file has";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--boards 4 but only 3 boards were given");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom
