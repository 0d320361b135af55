// End-to-end tests of the `mushroom` binary: the CLI contract that external
// tests rely on, error messages, and the bot/arena/replay round trip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sys/wait.h>

#include "agents/move_analysis.h"
#include "alphabeta/alphabeta.h"
#include "alphabeta/probcut.h"
#include "arena/games_file.h"
#include "mushroom/board_gen.h"
#include "mushroom/position_io.h"
#include "mushroom/reference_movegen.h"
#include "protocol/game_log.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

using CommandResult = ShellResult;

CommandResult run(const std::string& args, const std::string& stdin_file = "") {
  std::string command = std::string("'") + MUSHROOM_BIN + "' " + args;
  if (!stdin_file.empty()) command += " < '" + stdin_file + "'";
  return run_shell(command);
}

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::path("build-test-tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Cli, EverySubcommandHasHelp) {
  const CommandResult usage = run("--help");
  EXPECT_EQ(usage.exit_code, 0);
  for (const char* name : {"play", "moves", "perft", "bench", "positions", "bot", "arena", "replay", "solve", "tonga",
                           "view", "analyze", "dashboard", "export-bot", "ladder", "solve-endgame", "balanced-boards",
                           "time-use"}) {
    EXPECT_NE(usage.output.find(std::string("  ") + name), std::string::npos) << name;
    const CommandResult help = run(std::string(name) + " --help");
    EXPECT_EQ(help.exit_code, 0) << name;
    EXPECT_NE(help.output.find(std::string("mushroom ") + name), std::string::npos) << help.output;
  }
  const CommandResult unknown = run("frobnicate");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("unknown command 'frobnicate'"), std::string::npos);
}

TEST(Cli, MovesPrintsSortedLegalMovesWithoutThePass) {
  const std::string file = "testdata/perft/midgame.txt";
  const CommandResult r = run("moves --position " + file);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::string expected;
  for (const Move& m : generate_moves_naive(load_position_file(file))) expected += to_string(m) + "\n";
  EXPECT_EQ(r.output, expected);
  EXPECT_EQ(r.output.find("-1"), std::string::npos);
}

TEST(Cli, PerftPrintsOneInteger) {
  EXPECT_EQ(run("perft --position testdata/perft/start_uniform.txt --depth 2").output, "2941\n");
  EXPECT_EQ(run("perft --position testdata/perft/no_moves.txt --depth 2").output, "1\n");
  EXPECT_EQ(run("perft --position testdata/perft/no_moves.txt --depth 3").output, "0\n");
}

TEST(Cli, BadInputGetsAClearErrorNamingTheProblem) {
  const fs::path dir = temp_dir("cli-bad");
  write_file_atomic((dir / "bad.txt").string(), "12345678912345678\n1234567891234567x\n");
  const CommandResult bad = run("moves --position " + (dir / "bad.txt").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("bad.txt:2:17: expected digits 0-9, got 'x'"), std::string::npos) << bad.output;
  const CommandResult missing = run("moves --position /nonexistent/board.txt");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("cannot open file '/nonexistent/board.txt'"), std::string::npos);
  const CommandResult no_arg = run("perft --position testdata/perft/endgame.txt");
  EXPECT_NE(no_arg.output.find("missing required option --depth"), std::string::npos);
  const CommandResult bad_agent = run("arena --a builtin:nope --b builtin:greedy --boards 1");
  EXPECT_NE(bad_agent.output.find("unknown agent 'nope'"), std::string::npos) << bad_agent.output;
  const CommandResult bad_opt = run("bot --agent greedy:depth=3");
  EXPECT_NE(bad_opt.output.find("agent 'greedy' has no option 'depth'"), std::string::npos) << bad_opt.output;
  // The old spelling still works, and says what to write instead.
  const CommandResult old_opt = run("bot --agent greedy --opt depth=3");
  EXPECT_NE(old_opt.output.find("mushroom bot: --opt is an old spelling; write --agent greedy:depth=3"),
            std::string::npos) << old_opt.output;
  EXPECT_NE(old_opt.output.find("agent 'greedy' has no option 'depth'"), std::string::npos) << old_opt.output;
}

// cxxopts alone said "Argument 'x' failed to parse" and "Option 'bords'
// does not exist": the option and the nearest spelling are named now.
TEST(Cli, ParseErrorsNameTheOptionAndTheNearestSpelling) {
  CommandResult r = run("arena --a builtin:greedy --b builtin:random --boards x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("mushroom arena: error: --boards: 'x' is not a value it takes"), std::string::npos) << r.output;
  r = run("arena --a builtin:greedy --b builtin:random --bords 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown option --bords; did you mean --boards?"), std::string::npos) << r.output;
  r = run("arena --a builtin:greedy --b builtin:random --frobnicate 3");
  EXPECT_NE(r.output.find("unknown option --frobnicate (see --help)"), std::string::npos) << r.output;
  r = run("analyze");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("give the game log or position file to analyze: mushroom analyze LOG|POSITION"),
            std::string::npos)
      << r.output;
  r = run("analyze x.log --inaccuracy 4 --mistake 3");
  EXPECT_NE(r.output.find("--inaccuracy, --mistake and --blunder must be above 0 and in that order"), std::string::npos)
      << r.output;
  // One default per help line, in every subcommand.
  const CommandResult usage = run("--help");
  for (const std::string& line : split_lines(usage.output)) {
    if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') continue;
    const std::string command(split_words(line)[0]);
    std::string help = run(command + " --help").output;
    for (char& c : help)
      if (c == '\n') c = ' ';
    help = std::regex_replace(help, std::regex(" +"), " ");
    EXPECT_FALSE(std::regex_search(help, std::regex("\\(default: [^)]*\\) \\(default: "))) << command << ": " << help;
  }
}

TEST(Cli, BenchPrintsNsPerPositionLast) {
  const fs::path dir = temp_dir("cli-bench");
  const std::string set = (dir / "set.txt").string();
  ASSERT_EQ(run("positions --count 50 --seed 3 --out " + set).exit_code, 0);
  EXPECT_EQ(parse_position_list(read_file(set)).size(), 50u);
  const CommandResult r = run("bench movegen --positions " + set + " --seconds 0.05");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto lines = split_lines(r.output);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("ns_per_position=", 0), 0u);
  EXPECT_GT(std::stod(lines.back().substr(16)), 0.0);
}

TEST(Cli, PlayPrintsTheGame) {
  const CommandResult r = run("play --seed 3");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("first: greedy   second: random"), std::string::npos);
  EXPECT_NE(r.output.find("result: "), std::string::npos);
}

// mushroom-bot, beside mushroom, is `mushroom bot` without LibTorch
// (cli/bot_main.cpp): the arena and the ladder start it for builtin: programs.
const std::string kMushroomBot = (fs::path(MUSHROOM_BIN).parent_path() / "mushroom-bot").string();

// Both `mushroom bot` and mushroom-bot, the same command.
TEST(Cli, BotSpeaksTheProtocolOnStdout) {
  const fs::path dir = temp_dir("cli-bot");
  std::string init = "INIT";
  for (int r = 0; r < 10; ++r) init += " 12345678912345678";
  write_file_atomic((dir / "in.txt").string(), "READY FIRST\r\n\r\nBOGUS\n" + init + "\nTIME 10000 10000\nFINISH\n");
  for (const std::string& bot : {std::string("'") + MUSHROOM_BIN + "' bot", "'" + kMushroomBot + "'"}) {
    const std::string command = bot + " --agent greedy < '" + (dir / "in.txt").string() + "' 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[256] = {};
    std::string out;
    while (fgets(buffer, sizeof(buffer), pipe)) out += buffer;
    EXPECT_EQ(pclose(pipe), 0) << bot;
    const auto lines = split_lines(out);
    ASSERT_EQ(lines.size(), 2u) << bot << ": " << out;
    EXPECT_EQ(lines[0], "OK") << bot;
    EXPECT_EQ(split_words(lines[1]).size(), 4u) << bot;
  }
}

// mushroom-bot plays the contest bot with no --agent, knows the nn agent,
// names itself in its help and errors, and refuses what mushroom bot refuses.
TEST(Cli, MushroomBotIsTheBotCommand) {
  const fs::path dir = temp_dir("cli-mushroom-bot");
  std::string init = "INIT";
  for (int r = 0; r < 10; ++r) init += " 12345678912345678";
  const std::string in = (dir / "in.txt").string();
  write_file_atomic(in, "READY FIRST\n" + init + "\nTIME 10000 10000\nFINISH\n");
  const ShellResult help = run_shell("'" + kMushroomBot + "' --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.output.rfind("Play one game over the contest protocol", 0), 0u) << help.output;
  EXPECT_NE(help.output.find("Usage:\n  mushroom-bot [OPTION...]"), std::string::npos) << help.output;
  std::string as_mushroom_bot = help.output;
  as_mushroom_bot.replace(as_mushroom_bot.find("mushroom-bot"), 12, "mushroom bot");
  EXPECT_EQ(as_mushroom_bot, run("bot --help").output) << "mushroom-bot --help differs from mushroom bot --help";
  const ShellResult played = run_shell("'" + kMushroomBot + "' < '" + in + "' 2>/dev/null");
  ASSERT_EQ(played.exit_code, 0) << played.output;
  const auto lines = split_lines(played.output);
  ASSERT_EQ(lines.size(), 2u) << played.output;
  EXPECT_EQ(lines[0], "OK");
  EXPECT_EQ(split_words(lines[1]).size(), 4u) << played.output;
  const ShellResult nn = run_shell("'" + kMushroomBot + "' --agent nn:model=models/default.h5,sims=8 < '" + in + "' 2>/dev/null");
  ASSERT_EQ(nn.exit_code, 0) << nn.output;
  EXPECT_EQ(nn.output.rfind("OK\n", 0), 0u) << nn.output;
  const ShellResult bad = run_shell("'" + kMushroomBot + "' --agent nope < '" + in + "'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("mushroom-bot: error: unknown agent 'nope'"), std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find("OK"), std::string::npos) << bad.output;

  // The arena plays builtin: programs with it: its fingerprints name the
  // file each program ran (arena/program_fingerprint.h).
  const CommandResult arena = run("arena --a builtin:greedy --b builtin:random --boards 1 --log-dir " +
                                  (dir / "arena").string());
  ASSERT_EQ(arena.exit_code, 0) << arena.output;
  EXPECT_NE(arena.output.find("A: builtin:greedy = '" + kMushroomBot + "' --agent 'greedy'"), std::string::npos)
      << arena.output;
  const std::string fingerprints = read_file((dir / "arena" / "fingerprints.txt").string());
  for (const std::string side : {"a\t", "b\t"}) {
    const size_t line = fingerprints.find(side);
    ASSERT_NE(line, std::string::npos) << fingerprints;
    EXPECT_NE(fingerprints.substr(line, fingerprints.find('\n', line) - line).find(kMushroomBot + "@"), std::string::npos)
        << fingerprints;
  }
}

// `mushroom bot` with no --agent plays the shipped learned evaluation
// (models/eval.bin, or $MUSHROOM_EVAL); a file it cannot use is an error
// naming it before the game, and --model alone still means the nn agent.
TEST(Cli, TheDefaultBotPlaysTheShippedLearnedEvaluation) {
  const fs::path dir = temp_dir("cli-default-bot");
  std::string init = "INIT";
  for (int r = 0; r < 10; ++r) init += " 12345678912345678";
  const std::string in = (dir / "in.txt").string();
  write_file_atomic(in, "READY FIRST\n" + init + "\nTIME 10000 10000\nFINISH\n");
  const CommandResult help = run("bot --help");
  EXPECT_NE(help.output.find("learned evaluation models/eval.bin"), std::string::npos) << help.output;

  const CommandResult played = run("bot", in);
  ASSERT_EQ(played.exit_code, 0) << played.output;
  EXPECT_EQ(played.output.rfind("OK\n", 0), 0u) << played.output;

  const std::string eval = read_file("models/eval.bin");
  write_file_atomic((dir / "cut.eval").string(), eval.substr(0, eval.size() / 3));
  const CommandResult cut =
      run_shell("MUSHROOM_EVAL='" + (dir / "cut.eval").string() + "' '" + MUSHROOM_BIN + "' bot < '" + in + "'");
  EXPECT_NE(cut.exit_code, 0);
  EXPECT_NE(cut.output.find("cut.eval"), std::string::npos) << cut.output;
  EXPECT_EQ(cut.output.find("OK"), std::string::npos) << "a game began with an unusable evaluation: " << cut.output;

  // As the judge starts every program (`./main NYPC`, docs/submission.md "The judge"):
  // the judge's NYPC is taken quietly, other arguments that are not options
  // are noted on stderr; neither changes anything, and stdout still holds
  // only OK and the move.
  for (const std::string extra : {"NYPC", "--agent greedy NYPC --not-an-option"}) {
    const std::string err = (dir / "err.txt").string();
    const CommandResult judged = run_shell("('" + std::string(MUSHROOM_BIN) + "' bot " + extra + " < '" + in + "' 2> '" +
                                           err + "')");
    ASSERT_EQ(judged.exit_code, 0) << extra << ": " << judged.output << read_file(err);
    const auto lines = split_lines(judged.output);
    ASSERT_EQ(lines.size(), 2u) << judged.output;
    EXPECT_EQ(lines[0], "OK");
    EXPECT_EQ(split_words(lines[1]).size(), 4u) << lines[1];
    EXPECT_EQ(read_file(err).find("NYPC"), std::string::npos) << read_file(err);  // the judge's own: taken quietly
    if (extra != "NYPC") {
      EXPECT_NE(read_file(err).find("argument '--not-an-option' is not an option of mushroom bot; ignored"),
                std::string::npos)
          << read_file(err);
    }
  }

  const CommandResult nn = run("bot --model models/student.h5", in);
  EXPECT_EQ(nn.exit_code, 0) << nn.output;
  const CommandResult wrong_option = run("bot --opt sims=5", in);
  EXPECT_NE(wrong_option.output.find("agent 'alphabeta' has no option 'sims'"), std::string::npos) << wrong_option.output;
}

// `mushroom --version`: the commit and build type, and what LibTorch and
// CUDA the build has.
TEST(Cli, VersionNamesTheBuild) {
  const CommandResult r = run("--version");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("mushroom ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find(" (Release)"), std::string::npos) << r.output;
  EXPECT_TRUE(r.output.find("LibTorch ") != std::string::npos || r.output.find("without LibTorch") != std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("CUDA: "), std::string::npos) << r.output;
}

// Whenever one sequential test is asked for, the report shows both, and
// the one asked for stops the match; bad settings are refused by name
// before any game.
TEST(Cli, ArenaReportsBothTestsAndRefusesBadMarginSettings) {
  CommandResult r = run("arena --a builtin:greedy --b builtin:random --boards 1 --time-ms 1000 --sprt 0,15");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SPRT elo0=0.00 elo1=15.00 alpha=0.05 beta=0.05 min-games=200 (W/D/L, pentanomial): undecided after 2 "
                          "games"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\(W/D/L, pentanomial\): [^\n]*; it stops the match\n)")))
      << r.output;
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex(R"(margin SPRT h0=0.00 h1=0.10 cap=4 alpha=0.05 beta=0.05 min-games=200 \(capped cells a game\): )"
                           R"(undecided after 2 games \(LLR [-0-9.]+, bounds \[-2.94, 2.94\]\)\n)")))
      << r.output;
  r = run("arena --a builtin:greedy --b builtin:random --boards 1 --time-ms 1000 --sprt-margin -0.5,0.5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\(capped cells a game\): [^\n]*; it stops the match\n)")))
      << r.output;
  EXPECT_NE(r.output.find("SPRT elo0=0.00 elo1=15.00"), std::string::npos) << r.output;  // the rule's W/D/L bounds
  for (const auto& [args, words] : std::vector<std::pair<std::string, std::string>>{
           {"--sprt-margin 0.1,0", "--sprt-margin needs H0 < H1, got 0.10,0.00"},
           {"--sprt-margin 0,0.1 --margin-cap 0", "--margin-cap must be in (0, 170] cells, got 0.00"},
           {"--sprt-margin 0,5", "--sprt-margin: the bound 5.00 lies outside [-cap, +cap] = [-4.00, 4.00]"},
           {"--sprt-margin 0:1", "--sprt-margin must be 'H0,H1' in cells a game (e.g. 0,0.1), got '0:1'"},
           {"--sprt-margin 0,0.1 --margin-min-games -1", "--margin-min-games must be at least 0, got -1"},
           {"--sprt 0,15 --sprt-min-games -2", "--sprt-min-games must be at least 0, got -2"},
           {"--sprt 0,15 --margin-cap 0.05", "--margin-cap 0.05 is below the H1 of the margin test reported beside "
                                             "--sprt"},
       }) {
    const fs::path dir = temp_dir("cli-arena-bad-margin");
    r = run("arena --a builtin:greedy --b builtin:random --boards 1 --log-dir " + dir.string() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("mushroom arena: error: " + words), std::string::npos) << args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir / "games.csv")) << args << ": a game was played";
  }
}

TEST(Cli, ArenaReportsAndLogsReplay) {
  const fs::path dir = temp_dir("cli-arena");
  const CommandResult r = run("arena --a builtin:greedy --b builtin:random --boards 2 --seed 5 --log-dir " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The seat lines name the programs (a name is the spec when it can be).
  EXPECT_NE(r.output.find("builtin:greedy total:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Elo (builtin:greedy - builtin:random):"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "games.csv"));
  EXPECT_TRUE(fs::exists(dir / "report.txt"));
  const std::string log_path = (dir / "game-0000.log").string();
  const GameLog log = read_game_log(log_path);
  EXPECT_TRUE(log.finished);
  EXPECT_EQ(log.final_position().score(kFirst), log.score_first);
  const CommandResult replay = run("replay " + log_path);
  EXPECT_EQ(replay.exit_code, 0);
  EXPECT_NE(replay.output.find("FINISH  first " + std::to_string(log.score_first)), std::string::npos);
  // Progress lines carry their UTC time stamp (util/log_stamp.h).
  EXPECT_TRUE(std::regex_search(r.output, std::regex("(^|\\n)20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:]{8} \\[1/4\\] board")))
      << r.output;
  // The judge's clock by default; pentanomial counts and normalized Elo.
  EXPECT_NE(r.output.find("(cpu clock)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("pentanomial (pairs by builtin:greedy's score: LL, LD, DD or WL, WD, WW): "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("normalized Elo (builtin:greedy - builtin:random): "), std::string::npos) << r.output;
  // games.csv is the ladder's schema (arena/games_file.h).
  const std::vector<GameRecord> records = read_games_file((dir / "games.csv").string(), false);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].first, "builtin:greedy");
  EXPECT_EQ(records[0].second, "builtin:random");
  EXPECT_EQ(records[1].first, "builtin:random");
  EXPECT_EQ(records[0].log, "game-0000.log");
}

// time-use reads an arena folder through its games.csv: each program under
// its name, its bank used a game as the logs' time column adds up.
TEST(Cli, TimeUseReadsAMatchFolderUnderItsProgramsNames) {
  const fs::path dir = temp_dir("cli-time-use");
  const fs::path match = dir / "match";
  const CommandResult arena =
      run("arena --a builtin:greedy --a-name gr --b builtin:random --b-name rn --boards 2 --seed 5 --log-dir " +
          match.string());
  ASSERT_EQ(arena.exit_code, 0) << arena.output;
  double greedy_ms = 0;
  for (const GameRecord& g : read_games_file((match / "games.csv").string(), false))
    for (const LoggedMove& m : parse_game_log(read_file((match / g.log).string())).moves)
      if ((m.player == kFirst) == (g.first == "gr")) greedy_ms += m.ms;
  const CommandResult r = run("time-use " + match.string() + " --csv " + (dir / "bands.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4 games\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gr: 4 games, bank used a game: mean " + format_fixed(greedy_ms / 4, 0) + " ms"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("rn: 4 games"), std::string::npos) << r.output;
  const std::string csv = read_file((dir / "bands.csv").string());
  EXPECT_EQ(csv.rfind("program,left_low,left_high,moves,mean_ms,share\ngr,170,170,2,", 0), 0u) << csv;

  // A lone log without a games.csv beside it: its seats.
  fs::copy_file(match / "game-0000.log", dir / "lone.log");
  const CommandResult lone = run("time-use " + (dir / "lone.log").string());
  ASSERT_EQ(lone.exit_code, 0) << lone.output;
  EXPECT_NE(lone.output.find("first: 1 game"), std::string::npos) << lone.output;
  EXPECT_NE(lone.output.find("second: 1 game"), std::string::npos) << lone.output;
  // A log with its games.csv beside it: the programs' names, first seat first.
  const GameRecord g0 = read_games_file((match / "games.csv").string(), false)[0];
  const CommandResult named = run("time-use " + (match / g0.log).string());
  ASSERT_EQ(named.exit_code, 0) << named.output;
  EXPECT_NE(named.output.find(g0.first + ": 1 game"), std::string::npos) << named.output;
  EXPECT_LT(named.output.find(g0.first + ":"), named.output.find(g0.second + ":")) << named.output;

  // Seats as games.csv names them, with real times (the judge's example game:
  // FIRST 70 + 20 ms, SECOND 40 + 10 ms); a forfeit with no log is left out.
  const fs::path judged = dir / "judged";
  fs::create_directories(judged);
  fs::copy_file("testdata/judge/example-log.txt", judged / "ex.log");
  write_file_atomic((judged / "games.csv").string(), std::string(kGamesFileHeader) + "\n" +
                                                          "rn,gr,0,0,4,5,-1,,,ex.log\n"
                                                          "gr,rn,1,0,0,0,-1,gr,crash,\n");
  const CommandResult seats = run("time-use " + judged.string());
  ASSERT_EQ(seats.exit_code, 0) << seats.output;
  EXPECT_NE(seats.output.find("1 game (and 1 game left out"), std::string::npos) << seats.output;
  EXPECT_NE(seats.output.find("rn: 1 game, bank used a game: mean 90 ms"), std::string::npos) << seats.output;
  EXPECT_NE(seats.output.find("gr: 1 game, bank used a game: mean 50 ms"), std::string::npos) << seats.output;
  write_file_atomic((judged / "games.csv").string(),
                    std::string(kGamesFileHeader) + "\n" + "gr,rn,1,0,0,0,-1,gr,crash,\n");
  const CommandResult forfeits = run("time-use " + judged.string());
  EXPECT_NE(forfeits.exit_code, 0);
  EXPECT_NE(forfeits.output.find("no whole game to read (1 game left out)"), std::string::npos) << forfeits.output;

  // What it cannot read is named.
  const CommandResult no_games = run("time-use " + dir.string());
  EXPECT_NE(no_games.exit_code, 0);
  EXPECT_NE(no_games.output.find(dir.string() + " has no games.csv"), std::string::npos) << no_games.output;
  const CommandResult missing = run("time-use " + (dir / "nothing").string());
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.output.find("nothing does not exist"), std::string::npos) << missing.output;
  const CommandResult band = run("time-use " + match.string() + " --band 0");
  EXPECT_NE(band.exit_code, 0);
  EXPECT_NE(band.output.find("band width 0 is out of range"), std::string::npos) << band.output;
  const CommandResult bank = run("time-use " + match.string() + " --time-ms 0");
  EXPECT_NE(bank.exit_code, 0);
  EXPECT_NE(bank.output.find("--time-ms 0 is not a bank"), std::string::npos) << bank.output;
  write_file_atomic((dir / "torn.log").string(), "INIT 123\n");
  const CommandResult torn = run("time-use " + (dir / "torn.log").string());
  EXPECT_NE(torn.exit_code, 0);
  EXPECT_NE(torn.output.find("torn.log"), std::string::npos) << torn.output;
}

// A killed arena, run again with the same command, plays only the games not
// in games.csv: none lost, none repeated, the finished ones kept as they
// were. A torn last line (the kill mid-write) counts as not played. Other
// settings in the same folder are refused, naming them.
TEST(Cli, AKilledArenaResumesWithoutLosingOrRepeatingAGame) {
  const fs::path dir = temp_dir("cli-arena-resume");
  const std::vector<std::string> args = {MUSHROOM_BIN, "arena",   "--a",    "builtin:greedy", "--b",
                                         "builtin:random", "--boards", "12", "--seed", "21",
                                         "--log-dir",    dir.string()};
  const std::string games = (dir / "games.csv").string();
  auto lines_in = [&] { return fs::exists(games) ? split_lines(read_file(games)).size() : size_t(0); };
  {
    BackgroundProcess arena(args, (dir / "first-run.txt").string());
    ASSERT_TRUE(wait_until([&] { return lines_in() >= 5; }, 60)) << read_file((dir / "first-run.txt").string());
    arena.kill_now();
  }
  const std::string before = read_file(games);
  const size_t played_before = split_lines(before).size() - 1;
  ASSERT_LT(played_before, 24u) << "the first run finished before the kill";
  // A line torn by the kill: dropped and its game replayed.
  write_file_atomic(games, before + "builtin:greedy,builtin:random,11,");

  std::string command;
  for (const std::string& a : args) command += "'" + a + "' ";
  const CommandResult resumed = run_shell(command);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("resuming the match in " + dir.string() + ": " + std::to_string(played_before) +
                                " of 24 games already played"),
            std::string::npos)
      << resumed.output;
  const std::string after = read_file(games);
  EXPECT_EQ(after.rfind(before, 0), 0u) << "the games finished before the kill changed";
  const std::vector<GameRecord> records = read_games_file(games, false);  // throws on a repeated game
  ASSERT_EQ(records.size(), 24u);
  std::set<std::pair<int, std::string>> seen;
  for (const GameRecord& g : records) seen.insert({g.board, g.first});
  EXPECT_EQ(seen.size(), 24u);
  EXPECT_NE(resumed.output.find("games: 24 (12 complete pairs, " + std::to_string(played_before) + " read back"),
            std::string::npos)
      << resumed.output;
  // Played again when everything is done: nothing more.
  const CommandResult again = run_shell(command);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_file(games), after);

  const CommandResult other = run("arena --a builtin:greedy --b builtin:random --boards 12 --seed 22 --log-dir " +
                                  dir.string());
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("was played under other settings"), std::string::npos) << other.output;
  // Only the key that differs is shown, not both settings files whole.
  EXPECT_NE(other.output.find("  seed: played as '21', asked for '22'"), std::string::npos) << other.output;
  EXPECT_EQ(other.output.find("time_ms"), std::string::npos) << other.output;
}

// --boards-file plays boards in the official tool's INPUT format (10 lines
// of 17 digits), each twice with the sides swapped; a bad file is named
// with its line.
// A match begun when our bot's options were spelled --opt key=value resumes:
// arena.txt's programs compare in one spelling (arena/program_command.h).
TEST(Cli, AnArenaBegunUnderTheOldAgentSpellingResumes) {
  const fs::path dir = temp_dir("cli-arena-old-spelling");
  const std::string match = "arena --a builtin:alphabeta:depth=1 --b builtin:greedy --seed 5 --log-dir " + dir.string();
  const CommandResult first = run(match + " --boards 1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string settings_path = (dir / "arena.txt").string();
  std::string settings = read_file(settings_path);
  // Written as mushroom-bot plays it (ladder/program_spec.h); the old
  // spelling was mushroom's bot command with --opt pairs.
  const std::string now = "mushroom-bot' --agent 'alphabeta:depth=1'";
  const size_t spec = settings.find(now);
  ASSERT_NE(spec, std::string::npos) << settings;
  settings.replace(spec, now.size(), "mushroom' bot --agent 'alphabeta' --opt 'depth=1'");
  write_file_atomic(settings_path, settings);
  const CommandResult resumed = run(match + " --boards 2");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("games: 4 (2 complete pairs, 2 read back from games.csv)"), std::string::npos)
      << resumed.output;
  EXPECT_EQ(read_games_file((dir / "games.csv").string(), false).size(), 4u);
  EXPECT_NE(read_file(settings_path).find(now), std::string::npos);  // rewritten
  // Another program is still another match.
  const CommandResult other = run("arena --a builtin:alphabeta:depth=2 --b builtin:greedy --seed 5 --boards 2 --log-dir " +
                                  dir.string());
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.output.find("was played under other settings"), std::string::npos) << other.output;
}

TEST(Cli, ArenaPlaysTheBoardsOfAnInputFile) {
  const fs::path dir = temp_dir("cli-arena-boards");
  const Position a = parse_position(read_file("testdata/perft/start_uniform.txt"));
  const Position b = random_board(77);
  write_file_atomic((dir / "INPUT").string(), format_position(a) + "\n" + format_position(b));
  const CommandResult r = run("arena --a builtin:greedy --b builtin:random --boards-file " + (dir / "INPUT").string() +
                              " --log-dir " + (dir / "logs").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("games: 4 (2 complete pairs)"), std::string::npos) << r.output;
  for (int game = 0; game < 4; ++game) {
    char name[32];
    std::snprintf(name, sizeof(name), "game-%04d.log", game);
    const GameLog log = parse_game_log(read_file((dir / "logs" / name).string()));
    EXPECT_TRUE(log.start == (game < 2 ? a : b)) << name;
  }
  for (const GameRecord& g : read_games_file((dir / "logs" / "games.csv").string(), false)) EXPECT_EQ(g.board_seed, 0u);

  write_file_atomic((dir / "BAD").string(), format_position(a) + "\n12345\n");
  const CommandResult bad = run("arena --a builtin:greedy --b builtin:random --boards-file " + (dir / "BAD").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find((dir / "BAD").string() + ":12"), std::string::npos) << bad.output;
  const CommandResult too_many = run("arena --a builtin:greedy --b builtin:random --boards 3 --boards-file " +
                                     (dir / "INPUT").string());
  EXPECT_EQ(too_many.exit_code, 2) << too_many.output;
  EXPECT_NE(too_many.output.find("--boards 3 but only 2 boards were given"), std::string::npos) << too_many.output;
}

// The contest page's example board (testdata/judge/) is a one-board boards
// file: the arena plays it, and the page's own log of its example game
// replays move by move to 4-5.
TEST(Cli, TheJudgesExampleBoardPlaysFromABoardsFileAndItsLogReplays) {
  const fs::path dir = temp_dir("cli-judge-example");
  const CommandResult r = run("arena --a builtin:greedy --b builtin:greedy --boards-file testdata/judge/example-input.txt "
                              "--log-dir " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("games: 2 (1 complete pairs)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("boards testdata/judge/example-input.txt (fnv1a64 "), std::string::npos) << r.output;
  const Position example = parse_position(read_file("testdata/judge/example-input.txt"));
  EXPECT_TRUE(parse_game_log(read_file((dir / "game-0000.log").string())).start == example);

  const GameLog log = parse_game_log(read_file("testdata/judge/example-log.txt"), "example-log.txt");
  EXPECT_TRUE(log.start == example);
  Position pos = log.start;
  for (const LoggedMove& m : log.moves) {
    pos.set_to_move(m.player);
    ASSERT_TRUE(pos.is_legal(m.move)) << to_string(m.move);
    pos.apply(m.move);
  }
  EXPECT_TRUE(pos.game_over());
  EXPECT_EQ(pos.score(kFirst), 4);
  EXPECT_EQ(pos.score(kSecond), 5);
  const CommandResult replay = run("replay testdata/judge/example-log.txt");
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("FINISH  first 4  second 5"), std::string::npos) << replay.output;
  EXPECT_EQ(replay.output.find("ILLEGAL"), std::string::npos) << replay.output;
}

// A boards file is checked before any game: a 0 (an empty cell) has no
// place on a starting board, and seeded-board options are refused with it.
TEST(Cli, ABoardsFileWithADigitZeroOrASeedIsRefusedByName) {
  const fs::path dir = temp_dir("cli-boards-file-zero");
  std::string text = read_file("testdata/judge/example-input.txt");
  text[18 * 2 + 4] = '0';  // line 3, column 5
  write_file_atomic((dir / "zero.txt").string(), text);
  for (const char* command : {"arena --a builtin:greedy --b builtin:greedy", "ladder --dir DIR --program g=builtin:greedy "
                                                                             "--program r=builtin:random"}) {
    std::string c = command;
    if (c.find("DIR") != std::string::npos) c.replace(c.find("DIR"), 3, (dir / "ladder").string());
    const CommandResult zero = run(c + " --boards-file " + (dir / "zero.txt").string());
    EXPECT_EQ(zero.exit_code, 2) << zero.output;
    EXPECT_NE(zero.output.find((dir / "zero.txt").string() +
                               ":3:5: board 1 has the digit 0; a starting board holds the digits 1-9 only"),
              std::string::npos)
        << zero.output;
    const CommandResult seeded = run(c + " --seed 3 --boards-file testdata/judge/example-input.txt");
    EXPECT_EQ(seeded.exit_code, 2) << seeded.output;
    EXPECT_NE(seeded.output.find("--seed chooses seeded boards; it has no effect with --boards-file"), std::string::npos)
        << seeded.output;
  }
  EXPECT_FALSE(fs::exists(dir / "ladder" / "games.csv"));
}

// A program that cannot start stops the arena and the ladder within
// seconds, naming the cause; before, every game was forfeited and the match
// exited 0 with "Elo -inf".
TEST(Cli, AProgramThatCannotStartStopsTheMatchNamingTheCause) {
  const fs::path dir = temp_dir("cli-no-such-bot");
  const std::string ladder_dir = (dir / "ladder").string();
  for (const std::string& command :
       {std::string("arena --a ./no-such-bot --b builtin:greedy --boards 1"),
        "arena --a ./no-such-bot --b builtin:greedy --boards 5 --log-dir " + (dir / "arena").string(),
        "ladder --dir " + ladder_dir + " --program missing=./no-such-bot --program g=builtin:greedy --boards 3"}) {
    const auto t0 = std::chrono::steady_clock::now();
    const CommandResult r = run(command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find("could not start: crashed (exit 127) before"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("./no-such-bot: not found"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Elo"), std::string::npos) << r.output;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30)) << command;
  }
  EXPECT_TRUE(read_games_file((dir / "arena" / "games.csv").string(), false).empty());
  EXPECT_TRUE(read_games_file(ladder_dir + "/games.csv", false).empty());
}

// `mushroom balanced-boards` writes a boards file the arena plays, and its
// bad arguments are refused by name.
TEST(Cli, BalancedBoardsWritesABoardsFileTheArenaPlays) {
  const fs::path dir = temp_dir("cli-balanced-boards");
  const std::string out = (dir / "balanced.txt").string();
  const CommandResult r = run("balanced-boards --agent greedy --count 3 --max-margin 2 --seed 9 --out " + out +
                              " --trials " + (dir / "trials.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote 3 balanced boards to " + out), std::string::npos) << r.output;
  const std::vector<Position> boards = parse_position_list(read_file(out), out);
  EXPECT_EQ(boards.size(), 3u);
  const CommandResult match =
      run("arena --a builtin:greedy --b builtin:random --boards 1 --boards-file " + out);
  EXPECT_EQ(match.exit_code, 0) << match.output;
  for (const char* bad : {"--count 0", "--max-margin 200", "--parallel 0", "--agent greedy:depth=3"}) {
    const CommandResult b = run(std::string("balanced-boards --out ") + out + " " + bad);
    EXPECT_EQ(b.exit_code, 2) << bad << "\n" << b.output;
    const std::string name = std::string(bad).substr(2, std::string(bad).find(' ') - 2);
    EXPECT_NE(b.output.find(name == "agent" ? "depth" : "--" + name), std::string::npos) << bad << "\n" << b.output;
  }
  const CommandResult no_out = run("balanced-boards --count 1");
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_NE(no_out.output.find("missing required option --out"), std::string::npos) << no_out.output;
}

// An arena log becomes a viewer page; a broken log is an error naming the
// file and line, and writes nothing.
TEST(Cli, ViewWritesAPageFromAnArenaLog) {
  const fs::path dir = temp_dir("cli-view");
  const fs::path page = dir / "game.html";
  const CommandResult ok = run("view testdata/games/arena-sample.log --out " + page.string() + " --first us --second them");
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  const std::string html = read_file(page.string());
  EXPECT_NE(html.find("\"names\":[\"us\",\"them\"]"), std::string::npos);
  EXPECT_NE(html.find("id=\"board\""), std::string::npos);
  write_file_atomic((dir / "broken.log").string(), "INIT 1\n");
  const CommandResult bad = run("view " + (dir / "broken.log").string() + " --out " + (dir / "broken.html").string());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("broken.log:1:"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(dir / "broken.html"));
  const CommandResult no_out = run("view testdata/games/arena-sample.log");
  EXPECT_NE(no_out.exit_code, 0);
  EXPECT_NE(no_out.output.find("missing required option --out"), std::string::npos) << no_out.output;
}

// The analyze columns of a line (#, player, played, cells, before, after,
// loss, judgement, depth, proved, best, worst, expected line...).
std::vector<std::string> analysis_columns(const std::string& line) {
  std::vector<std::string> out;
  for (std::string_view w : split_words(line)) out.emplace_back(w);
  return out;
}

// `mushroom analyze` searches each position as a fresh `mushroom bot` with
// the same settings would: at a fixed depth both are deterministic, so the
// best moves and values must agree exactly, here and over the protocol.
TEST(Cli, AnalyzeAgreesWithTheBotAtTheSameSettings) {
  const fs::path dir = temp_dir("cli-analyze");
  const std::string log_path = "testdata/games/arena-sample.log";
  const GameLog log = read_game_log(log_path);
  const std::string settings = "--agent alphabeta:depth=4,solver=false";
  const fs::path page = dir / "analysis.html";
  const CommandResult analyzed = run_shell("('" + std::string(MUSHROOM_BIN) + "' analyze " + log_path + " " + settings +
                                           " --out " + page.string() + " 2>/dev/null)");
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
  const std::vector<std::string> lines = split_lines(analyzed.output);
  // The header, a line per move, the end, each player's account.
  ASSERT_EQ(lines.size(), log.moves.size() + 4) << analyzed.output;
  EXPECT_EQ(analysis_columns(lines[0])[0], "#");
  int marked = 0;
  for (size_t i = 0; i < log.moves.size(); ++i) {
    const std::vector<std::string> row = analysis_columns(lines[i + 1]);
    EXPECT_EQ(row[0], std::to_string(i + 1));
    EXPECT_EQ(row[1], player_name(log.moves[i].player));
    EXPECT_GE(std::stod(row[6]), 0.0) << lines[i + 1];            // no move loses a negative amount
    if (row[2] == row[10]) {
      EXPECT_EQ(row[6], "0.00") << lines[i + 1];  // the best move loses nothing
    }
    marked += row[11] != "-";
  }
  EXPECT_GE(marked, 1);
  EXPECT_LE(marked, 3);
  EXPECT_EQ(lines[log.moves.size() + 1].rfind("end: ", 0), 0u) << lines[log.moves.size() + 1];
  EXPECT_EQ(lines[log.moves.size() + 2].rfind("FIRST: mean loss ", 0), 0u) << lines[log.moves.size() + 2];
  EXPECT_EQ(lines[log.moves.size() + 3].rfind("SECOND: mean loss ", 0), 0u) << lines[log.moves.size() + 3];

  // The bot, FIRST, at the start; and SECOND, after the log's first move.
  const std::string init = split_lines(read_file(log_path))[0];
  const std::string first_in = (dir / "first.txt").string(), second_in = (dir / "second.txt").string();
  write_file_atomic(first_in, "READY FIRST\n" + init + "\nTIME 10000 10000\nFINISH\n");
  write_file_atomic(second_in, "READY SECOND\n" + init + "\nOPP " + to_string(log.moves[0].move) +
                                   " 100\nTIME 10000 10000\nFINISH\n");
  const fs::path err = dir / "err.txt";
  for (int ply = 0; ply < 2; ++ply) {
    const CommandResult bot = run_shell("('" + std::string(MUSHROOM_BIN) + "' bot --analysis " + settings + " < '" +
                                        (ply ? second_in : first_in) + "' 2> '" + err.string() + "')");
    ASSERT_EQ(bot.exit_code, 0) << bot.output;
    const std::vector<std::string> out = split_lines(bot.output);
    ASSERT_EQ(out.size(), 2u) << bot.output;  // --analysis keeps stdout to OK and the move
    const std::vector<std::string_view> words = split_words(out[1]);
    const Move played = Move::rect(std::stoi(std::string(words[0])), std::stoi(std::string(words[1])),
                                   std::stoi(std::string(words[2])), std::stoi(std::string(words[3])));
    const std::vector<std::string> row = analysis_columns(lines[ply + 1]);
    EXPECT_EQ(describe_move(played), row[10]) << "move " << ply + 1 << ": " << lines[ply + 1];
    // --analysis writes the same line for the bot's own move, with the same value.
    const std::vector<std::string> bot_lines = split_lines(read_file(err.string()));
    ASSERT_EQ(bot_lines.size(), 2u) << read_file(err.string());
    const std::vector<std::string> own = analysis_columns(bot_lines[1]);
    EXPECT_EQ(own[0], std::to_string(ply + 1));
    EXPECT_EQ(own[2], describe_move(played));
    EXPECT_EQ(own[4], row[4]) << "the value before move " << ply + 1;
    EXPECT_EQ(own[8], row[8]) << "the depth";
  }

  // The page carries the graph's points, one per position.
  const std::string html = read_file(page.string());
  const std::string open = "<script type=\"application/json\" id=\"game-data\">";
  const size_t from = html.find(open);
  ASSERT_NE(from, std::string::npos);
  const nlohmann::json data =
      nlohmann::json::parse(html.substr(from + open.size(), html.find("</script>", from) - from - open.size()));
  EXPECT_EQ(data["analysis"]["points"].size(), log.moves.size() + 1);
  for (size_t i = 0; i < log.moves.size(); ++i) EXPECT_GE(data["moves"][i]["analysis"]["loss"].get<double>(), 0.0);

  // A position file: one line, for the side to move.
  const CommandResult position = run_shell("('" + std::string(MUSHROOM_BIN) +
                                           "' analyze testdata/perft/midgame.txt --to-move SECOND " + settings +
                                           " 2>/dev/null)");
  ASSERT_EQ(position.exit_code, 0) << position.output;
  const std::vector<std::string> position_lines = split_lines(position.output);
  ASSERT_EQ(position_lines.size(), 2u) << position.output;
  EXPECT_EQ(analysis_columns(position_lines[1])[1], "SECOND");
  EXPECT_EQ(analysis_columns(position_lines[1])[8], "4");
  // The file's own "to move:" line, when --to-move is not given.
  write_file_atomic((dir / "second.txt").string(), read_file("testdata/perft/midgame.txt") + "\nto move: SECOND\n");
  const CommandResult from_file = run_shell("('" + std::string(MUSHROOM_BIN) + "' analyze " +
                                            (dir / "second.txt").string() + " " + settings + " 2>/dev/null)");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.output;
  EXPECT_EQ(split_lines(from_file.output)[1], position_lines[1]);
}

// An arena's or a ladder's game log has its players in the games.csv
// beside it: analyze names them beside the seats, and --first and --second
// name them for any other log.
TEST(Cli, AnalyzeNamesTheProgramsBesideTheSeats) {
  const fs::path dir = temp_dir("cli-analyze-names");
  const std::string log_path = (dir / "game-0003.log").string();
  write_file_atomic(log_path, read_file("testdata/games/arena-sample.log"));
  GameRecord record;
  record.first = "eval3", record.second = "hand";
  record.board = 1;
  record.first_score = 40, record.second_score = 30, record.outcome = 1;
  record.log = "game-0003.log";
  GameRecord other = record;
  other.first = "hand", other.second = "eval3", other.log = "game-0002.log";
  write_file_atomic((dir / "games.csv").string(),
                    std::string(kGamesFileHeader) + "\n" + format_game_record(other) + "\n" +
                        format_game_record(record) + "\n");
  // stdout alone: the progress lines go to stderr.
  auto analyze = [](const std::string& args) {
    return run_shell("('" + std::string(MUSHROOM_BIN) + "' analyze " + args +
                     " --agent alphabeta:depth=1,solver=false 2>/dev/null)");
  };
  const CommandResult named = analyze(log_path);
  ASSERT_EQ(named.exit_code, 0) << named.output;
  const std::vector<std::string> lines = split_lines(named.output);
  ASSERT_GE(lines.size(), 4u) << named.output;
  EXPECT_EQ(lines[0], "players: FIRST eval3, SECOND hand");
  EXPECT_EQ(lines[lines.size() - 2].rfind("FIRST (eval3): mean loss ", 0), 0u) << named.output;
  EXPECT_EQ(lines[lines.size() - 1].rfind("SECOND (hand): mean loss ", 0), 0u) << named.output;
  // A flag names its seat over the games file.
  const CommandResult renamed = analyze(log_path + " --second greedy");
  EXPECT_NE(renamed.output.find("players: FIRST eval3, SECOND greedy\n"), std::string::npos) << renamed.output;
  EXPECT_NE(renamed.output.find("SECOND (greedy): mean loss "), std::string::npos) << renamed.output;
  // A log alone says how to name them, on stderr.
  const CommandResult alone = run("analyze testdata/games/arena-sample.log --agent alphabeta:depth=1,solver=false");
  EXPECT_EQ(alone.output.find("players: "), std::string::npos) << alone.output;
  EXPECT_NE(alone.output.find("--first and --second name them"), std::string::npos) << alone.output;
}

TEST(Cli, AnalyzeNamesWhatIsWrongWithItsInput) {
  const fs::path dir = temp_dir("cli-analyze-bad");
  const std::string log = "testdata/games/arena-sample.log";
  const struct {
    std::string args, message;
  } cases[] = {
      {log + " --agent alphabeta:bogus=1", "has no option 'bogus'"},
      {log + " --agent alphabeta:depth", "agent option 'depth' in 'alphabeta:depth' is not key=value"},
      {log + " --agent alphabeta:move_ms=5", "--ms"},
      {log + " --ms 0", "--ms must be above 0"},
      {log + " --to-move THIRD", "--to-move must be FIRST or SECOND"},
      {(dir / "missing.log").string(), "missing.log"},
  };
  for (const auto& c : cases) {
    const CommandResult r = run("analyze " + c.args);
    EXPECT_NE(r.exit_code, 0) << c.args;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << ": " << r.output;
  }
  write_file_atomic((dir / "broken.log").string(), "INIT 1\n");
  const CommandResult broken = run("analyze " + (dir / "broken.log").string() + " --out " + (dir / "b.html").string());
  EXPECT_NE(broken.exit_code, 0);
  EXPECT_NE(broken.output.find("broken.log:1:"), std::string::npos) << broken.output;
  EXPECT_FALSE(fs::exists(dir / "b.html"));
  std::string illegal = read_file(log);
  const size_t second_move = illegal.find("\nSECOND ");
  illegal = illegal.substr(0, second_move) + "\nSECOND 0 0 0 0 5" + illegal.substr(illegal.find('\n', second_move + 1));
  write_file_atomic((dir / "illegal.log").string(), illegal);
  const CommandResult wrong = run("analyze " + (dir / "illegal.log").string() + " --agent alphabeta:depth=1");
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.output.find("move 2 (SECOND 0 0 0 0) is illegal"), std::string::npos) << wrong.output;
}

// `mushroom solve-endgame`: the exact margin and a move that keeps it, for
// either side to move (the position file says which), checked in-process.
TEST(Cli, SolveEndgamePrintsTheMarginAndAMoveThatKeepsIt) {
  const fs::path dir = temp_dir("cli-solve-endgame");
  const std::string endgame = "testdata/perft/endgame.txt";
  write_file_atomic((dir / "second.txt").string(), read_file(endgame) + "\nto move: SECOND\n");
  for (const std::string& file : {endgame, (dir / "second.txt").string()}) {
    const CommandResult r = run("solve-endgame --position " + file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::vector<std::string> lines = split_lines(r.output);
    int margin = 0, r1, c1, r2, c2;
    ASSERT_EQ(std::sscanf(lines.back().c_str(), "margin=%d best=%d %d %d %d", &margin, &r1, &c1, &r2, &c2), 5)
        << r.output;
    const Position pos = load_position_file(file);
    AlphaBeta solver;
    EXPECT_EQ(solver.solve_exact(pos, 0), margin) << file;
    Position after = pos;
    const Move best = Move::rect(r1, c1, r2, c2);
    ASSERT_TRUE(pos.is_legal(best)) << r.output;
    after.apply(best);
    EXPECT_EQ(-*AlphaBeta().solve_exact(after, 0), margin) << "the move named keeps the margin";
    EXPECT_NE(r.output.find("nodes: "), std::string::npos);
    EXPECT_NE(r.output.find("% by the first move tried"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(std::string(player_name(pos.to_move())) + " to move"), std::string::npos) << r.output;
    const CommandResult plain = run("solve-endgame --solver alphabeta --position " + file);
    ASSERT_EQ(plain.exit_code, 0) << plain.output;
    EXPECT_EQ(plain.output.find("ordering: "), std::string::npos) << "alpha-beta keeps no such counts";
    EXPECT_EQ(split_lines(plain.output).back().rfind("margin=" + std::to_string(margin) + " best=", 0), 0u)
        << plain.output;
    const CommandResult wdl = run("solve-endgame --wdl --position " + file);
    ASSERT_EQ(wdl.exit_code, 0) << wdl.output;
    EXPECT_EQ(split_lines(wdl.output).back().rfind(margin > 0 ? "result=win best=" : margin == 0 ? "result=draw best="
                                                                                                : "result=loss best=", 0),
              0u) << wdl.output;
  }
  const CommandResult limited = run("solve-endgame --position testdata/perft/midgame.txt --nodes 1000");
  EXPECT_EQ(limited.exit_code, 1) << limited.output;
  EXPECT_NE(limited.output.find("not proved within the limits"), std::string::npos) << limited.output;
  const CommandResult missing = run("solve-endgame --position " + (dir / "none.txt").string());
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.output.find("none.txt"), std::string::npos) << missing.output;
  const CommandResult bits = run("solve-endgame --position " + endgame + " --tt-bits 5");
  EXPECT_NE(bits.output.find("--tt-bits must be in 10..30"), std::string::npos) << bits.output;
}

// `mushroom bench endgame`: the solver's reach by bucket of mushrooms left.
TEST(Cli, BenchEndgameReportsReachByBucket) {
  const fs::path dir = temp_dir("cli-bench-endgame");
  const CommandResult r = run_shell("('" + std::string(MUSHROOM_BIN) +
                                    "' bench endgame --positions testdata/perft/endgame.txt testdata/perft/midgame.txt "
                                    "testdata/perft/no_moves.txt --ms 50 2>/dev/null)");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = split_lines(r.output);
  ASSERT_EQ(lines.size(), 8u) << r.output;  // the title, the heading, five buckets, the summary
  EXPECT_EQ(lines[0].rfind("endgame (exact margin, 50 ms a position, 2^22 table)", 0), 0u) << lines[0];
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex(R"(proved_105_119=[01]\.\d{3} proved_120_134=[01]\.\d{3} median_ms=[0-9.]+)")))
      << lines.back();
  // endgame.txt (87 left) and no_moves.txt are proved at once; midgame.txt (138 left) is not, in 50 ms.
  EXPECT_TRUE(std::regex_match(lines[2], std::regex(R"(<=89 +2 +1\.000 +[0-9.]+)"))) << lines[2];
  EXPECT_TRUE(std::regex_match(lines[6], std::regex(R"(>=135 +1 +0\.000 +50\.0)"))) << lines[6];
  // Both solvers on random endgames: the reference table first, then the check that they agree.
  const CommandResult both = run_shell("('" + std::string(MUSHROOM_BIN) +
                                       "' bench endgame --random 12 --max-left 55 --seed 5 --reference --ms 5000 2>/dev/null)");
  ASSERT_EQ(both.exit_code, 0) << both.output;
  EXPECT_EQ(both.output.rfind("reference: alphabeta (exact margin", 0), 0u) << both.output;
  EXPECT_NE(both.output.find("agreement: 12 of 12 positions that both proved"), std::string::npos) << both.output;
  EXPECT_NE(both.output.find("<=89            12    1.000"), std::string::npos) << both.output;
  // --regret: the bot's own move on each proved position, against the proven margin.
  const CommandResult regret = run_shell("('" + std::string(MUSHROOM_BIN) +
                                         "' bench endgame --random 6 --max-left 50 --seed 6 --regret --agent alphabeta:depth=1 "
                                         "--regret-ms 20 2>/dev/null)");
  ASSERT_EQ(regret.exit_code, 0) << regret.output;
  const std::vector<std::string> regret_lines = split_lines(regret.output);
  ASSERT_GE(regret_lines.size(), 3u) << regret.output;
  EXPECT_EQ(regret_lines[0], "regret: alphabeta:depth=1 at 20 ms a move, on the positions proved") << regret.output;
  int measured = 0, lost = 0, moves_lost = 0, worst = 0;
  double mean = 0;
  ASSERT_EQ(std::sscanf(regret_lines[2].c_str(), "<=89 %d %d %d %lf %d", &measured, &lost, &moves_lost, &mean, &worst), 5)
      << regret_lines[2];
  EXPECT_EQ(measured, 6);  // every random endgame was proved, and so was the position after each move
  EXPECT_GE(lost, moves_lost);
  EXPECT_GE(worst, 0);
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--random 3 --regret --wdl", "--regret needs the exact margins"},
           {"--random 3 --regret --agent alphabeta:bogus=1", "has no option 'bogus'"},
           {"--random 3 --regret --agent greedy", "agent 'greedy' has no option 'move_ms'"},
           {"--random 3 --solver minimax", "unknown solver 'minimax'"},
           {"--random 3 --etc 2", "--etc must be 0 or 1"},
           {"--random 3 --ordering-min-left 200", "--ordering-min-left must be in 0..171"},
           {"--ms 10", "give --positions FILE... or --random N"},
           {"--random 3 --max-left 0", "--max-left must be in 1..170"}}) {
    const CommandResult r2 = run("bench endgame " + args);
    EXPECT_NE(r2.exit_code, 0) << args;
    EXPECT_NE(r2.output.find(message), std::string::npos) << args << ": " << r2.output;
  }
  // --selective: the shipped fit with the evaluation it was made with, at its own settings (cuts from 80
  // mushrooms left), on endgames of 80-88 left that both modes answer in test time: it cuts, its shallow
  // searches run, and it answers as the exact solver does on most; with another evaluation it is refused,
  // naming the fit, before any solving.
  const CommandResult selective = run_shell("('" + std::string(MUSHROOM_BIN) +
                                            "' bench endgame --random 4 --max-left 88 --seed 467 --ms 5000 "
                                            "--selective models/eval.probcut --eval models/eval.bin 2>/dev/null)");
  ASSERT_EQ(selective.exit_code, 0) << selective.output;
  unsigned long long cuts = 0, shallow_nodes = 0;
  const size_t cuts_at = selective.output.find("selective cuts ");
  ASSERT_NE(cuts_at, std::string::npos) << selective.output;
  ASSERT_EQ(std::sscanf(selective.output.c_str() + cuts_at, "selective cuts %llu, shallow-search nodes %llu", &cuts,
                        &shallow_nodes), 2) << selective.output;
  EXPECT_GT(cuts, 0u) << selective.output;
  EXPECT_GT(shallow_nodes, 0u) << selective.output;
  int answered = 0, same = 0;
  const size_t agreement_at = selective.output.find("on the ");
  ASSERT_NE(agreement_at, std::string::npos) << selective.output;
  ASSERT_EQ(std::sscanf(selective.output.c_str() + agreement_at, "on the %d positions both answered: the same value %d,",
                        &answered, &same), 2) << selective.output;
  EXPECT_EQ(answered, 4) << selective.output;
  EXPECT_GE(2 * same, answered) << selective.output;
  const CommandResult other_eval =
      run("bench endgame --random 3 --selective models/eval.probcut --eval models/eval-2h-norandom-gen1.bin");
  EXPECT_NE(other_eval.exit_code, 0);
  EXPECT_NE(other_eval.output.find("ProbCut fit models/eval.probcut was made with evaluation"), std::string::npos)
      << other_eval.output;
  write_file_atomic((dir / "bad.txt").string(), "123\n");
  const CommandResult bad = run("bench endgame --positions testdata/perft/endgame.txt " + (dir / "bad.txt").string());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("bad.txt:1:4: row has only 3 of 17 digits"), std::string::npos) << bad.output;
}

// `mushroom probcut-fit` end to end on a tiny input: the fit file is
// written and reads back as the table printed, --samples writes one CSV row
// a position searched, and bad settings are refused by name before any
// search (a missing folder for --samples included, not after the work).
TEST(Cli, ProbCutFitWritesTheFitItPrintsAndRefusesBadSettings) {
  const fs::path dir = temp_dir("cli-probcut-fit");
  const std::string fit_path = (dir / "fit.probcut").string(), csv_path = (dir / "samples.csv").string();
  const std::string tiny = "probcut-fit --games 2 --threads 1 --play-depth 1 --sample-rate 1 --max-depth 4 "
                           "--pairs 3:1,4:2 --min-samples 3 --tt-bits 14 --nodes 100000";
  const CommandResult r = run_shell("('" + std::string(MUSHROOM_BIN) + "' " + tiny + " --out " + fit_path +
                                    " --samples " + csv_path + " 2>/dev/null)");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(fs::exists(fit_path));
  const std::string text = read_file(fit_path);
  const ProbCutFit fit = parse_probcut_fit(text, fit_path);
  EXPECT_EQ(fit.evaluation, "hand");
  ASSERT_FALSE(fit.empty());
  for (const auto& [band, pair] : fit.entries()) {
    EXPECT_TRUE((pair.depth == 3 && pair.shallow == 1) || (pair.depth == 4 && pair.shallow == 2)) << pair.depth;
    EXPECT_GE(pair.samples, 3);
  }
  EXPECT_NE(text.find("# mushroom probcut-fit --eval \"\" --games 2 --seed 1 --play-depth 1"), std::string::npos) << text;
  EXPECT_NE(r.output.find(text), std::string::npos) << "the table printed is the file written:\n" << r.output;
  // positions=N complete=C solved=0 pairs=P ..., then the file named.
  int positions = 0, complete = 0, solved = -1, pairs = 0;
  const size_t summary = r.output.find("positions=");
  ASSERT_NE(summary, std::string::npos) << r.output;
  ASSERT_EQ(std::sscanf(r.output.c_str() + summary, "positions=%d complete=%d solved=%d pairs=%d", &positions,
                        &complete, &solved, &pairs), 4) << r.output;
  EXPECT_GE(positions, 20);
  EXPECT_LE(complete, positions);
  EXPECT_EQ(solved, 0);
  EXPECT_EQ(pairs, int(fit.entries().size()));
  EXPECT_NE(r.output.find("wrote " + fit_path), std::string::npos) << r.output;
  const std::vector<std::string> rows = split_lines(read_file(csv_path));
  ASSERT_EQ(int(rows.size()), positions + 1);
  EXPECT_EQ(rows[0], "game,ply,mushrooms_left,exact,v1,v2,v3,v4");
  EXPECT_EQ(std::count(rows[1].begin(), rows[1].end(), ','), 7) << rows[1];
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"--max-depth 40", "--max-depth must be in [2, 32]"},
      {"--max-depth 1", "--max-depth must be in [2, 32]"},
      {"--pairs 8-4", "depth pair '8-4' is not DEPTH:SHALLOW"},
      {"--pairs 6:3", "pair 6:3 must have a shallow depth"},
      {"--min-samples 2", "--min-samples must be at least 3"},
      {"--sample-rate 0", "--sample-rate must be in (0, 1]"},
      {"--exact-max-left 90 --exact-shallow 5", "--exact-shallow = 5 must be in [1, --max-depth = 4]"},
  };
  for (const auto& [flags, message] : bad) {
    const CommandResult refused = run(tiny + " " + flags + " --out " + (dir / "x.probcut").string());
    EXPECT_NE(refused.exit_code, 0) << flags;
    EXPECT_NE(refused.output.find(message), std::string::npos) << flags << ": " << refused.output;
  }
  const CommandResult no_out = run(tiny);
  EXPECT_NE(no_out.exit_code, 0);
  EXPECT_NE(no_out.output.find("missing required option --out"), std::string::npos) << no_out.output;
  for (const std::string flag : {"--out", "--samples"}) {
    const std::string missing = (dir / "no-such-folder" / "f").string();
    const CommandResult refused =
        run(tiny + (flag == "--out" ? " --out " + missing : " --out " + (dir / "y.probcut").string() + " --samples " + missing));
    EXPECT_NE(refused.exit_code, 0) << flag;
    EXPECT_NE(refused.output.find(flag + " " + missing + ": the folder " + (dir / "no-such-folder").string() +
                                  " does not exist"), std::string::npos) << refused.output;
    EXPECT_EQ(refused.output.find("positions="), std::string::npos) << flag << ": refused only after the search";
  }
  EXPECT_FALSE(fs::exists(dir / "x.probcut"));
  EXPECT_FALSE(fs::exists(dir / "y.probcut"));
}

// `mushroom positions --from-logs`: every position of a game, as it stood,
// ready for the solver.
TEST(Cli, PositionsFromLogsWriteEveryPositionAsItStood) {
  const fs::path dir = temp_dir("cli-positions-logs");
  const std::string log = "testdata/games/arena-sample.log";
  const GameLog game = parse_game_log(read_file(log));
  const CommandResult r = run("positions --from-logs " + log + " --min-left 0 --max-left 170 --dir " + (dir / "all").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Position pos = game.start;
  int written = 0;
  for (size_t i = 0; i < game.moves.size(); ++i) {
    check_logged_move(pos, game.moves[i], i);
    char name[32];
    std::snprintf(name, sizeof(name), "arena-sample-ply-%02zu.txt", i);
    const fs::path file = dir / "all" / name;
    ASSERT_TRUE(fs::exists(file)) << file;
    Position read = load_position_file(file.string());
    read.set_ply(pos.ply());  // the file does not keep the move number
    EXPECT_TRUE(read == pos) << file;  // owners, side to move and pass included
    ++written;
    pos.apply(game.moves[i].move);
  }
  EXPECT_NE(r.output.find("wrote " + std::to_string(written) + " positions"), std::string::npos) << r.output;
  // A range keeps only its positions.
  const CommandResult some = run("positions --from-logs " + log + " --min-left 100 --max-left 120 --dir " + (dir / "some").string());
  ASSERT_EQ(some.exit_code, 0) << some.output;
  for (const auto& entry : fs::directory_iterator(dir / "some")) {
    const int left = load_position_file(entry.path().string()).mushrooms_left();
    EXPECT_TRUE(left >= 100 && left <= 120) << entry.path();
  }
  const CommandResult bad = run("positions --from-logs " + log + " --min-left 90 --max-left 80 --dir " + (dir / "x").string());
  EXPECT_NE(bad.output.find("--min-left and --max-left"), std::string::npos) << bad.output;
  const CommandResult no_dir = run("positions --from-logs " + log);
  EXPECT_NE(no_dir.output.find("--dir"), std::string::npos) << no_dir.output;
}

TEST(Cli, ArenaRunsTheOfficialSettingIni) {
  const fs::path dir = temp_dir("cli-ini");
  write_file_atomic((dir / "board.txt").string(), format_position(parse_position(read_file("testdata/perft/start_uniform.txt"))));
  const std::string bin = MUSHROOM_BIN;
  write_file_atomic((dir / "setting.ini").string(),
                    "; official tool settings\nINPUT=board.txt\nLOG=out.log\nEXEC1=" + bin +
                        " bot --agent greedy\nEXEC2=" + bin + " bot --agent random\n");
  const CommandResult r = run("arena --setting " + (dir / "setting.ini").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SCOREFIRST "), std::string::npos) << r.output;
  const GameLog log = parse_game_log(read_file((dir / "out.log").string()));
  EXPECT_TRUE(log.finished);
  EXPECT_TRUE(log.start == parse_position(read_file("testdata/perft/start_uniform.txt")));
  write_file_atomic((dir / "bad.ini").string(), "INPUT=board.txt\nTIMEOUT=5\n");
  const CommandResult bad = run("arena --setting " + (dir / "bad.ini").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("bad.ini:2: unknown key 'TIMEOUT'"), std::string::npos) << bad.output;
}

TEST(Cli, TongaHarnessReportsTheTable) {
  const CommandResult r = run("tonga --games 2 --sizes 6 --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("| 6 | 2 |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("overall score (sum of signed square roots)"), std::string::npos) << r.output;
  const CommandResult bad = run("tonga --sizes 7");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("7 is not an even size"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace mushroom
