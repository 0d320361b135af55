// Every report can be read by a program, and every command takes the same
// output options: the arena's report.json against its report.txt from the
// same games, --json refused before any game when it cannot be written, the
// ladder's ratings.json, `bench --json`, and --progress, --quiet, --verbose.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "arena/arena_report_test_util.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

ShellResult run(const std::string& args) { return run_shell(std::string("'") + MUSHROOM_BIN + "' " + args); }

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::path("build-test-tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(read_file(path.string())); }

// A 4-game match with both tests: report.json beside report.txt, and the
// same again at --json; their figures are report.txt's.
TEST(Reports, TheArenasJsonHoldsTheFiguresOfItsText) {
  const fs::path dir = temp_dir("reports-arena");
  const ShellResult r = run("arena --a builtin:random --a-name r1 --b builtin:greedy --b-name g2 --boards 2 --seed 4 "
                            "--time-ms 1000 --sprt 0,15 --log-dir " + (dir / "match").string() + " --json " +
                            (dir / "copy.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir / "match" / "report.json");
  const std::string text = read_file((dir / "match" / "report.txt").string());
  EXPECT_EQ(j["schema"], "mushroom-arena-report");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["games"]["played"], 4);
  EXPECT_EQ(report_json_disagreements(j, text), std::vector<std::string>{}) << text << "\n" << j.dump(2);
  // The printed report is report.txt.
  EXPECT_NE(r.output.find(text), std::string::npos) << r.output;
  nlohmann::json copy = read_json(dir / "copy.json"), kept = j;
  copy.erase("written"), kept.erase("written");
  EXPECT_EQ(copy, kept);
  // The programs with their fingerprints: the mushroom-bot binary they run.
  EXPECT_NE(j["programs"]["a"]["fingerprint"].get<std::string>().find("mushroom-bot@"), std::string::npos) << j.dump(2);
  EXPECT_EQ(j["sprt"]["wdl"]["elo1"], 15.0);
  EXPECT_FALSE(j["sprt"]["margin"].is_null());
}

// A --json that cannot be written is refused by name, before any game.
TEST(Reports, AJsonThatCannotBeWrittenIsRefusedBeforeAnyGame) {
  const fs::path dir = temp_dir("reports-bad-json");
  write_file_atomic((dir / "a-file").string(), "x");
  for (const auto& [path, words] : std::vector<std::pair<std::string, std::string>>{
           {(dir / "no-such" / "r.json").string(), "the folder " + (dir / "no-such").string() + " does not exist"},
           {(dir / "a-file" / "r.json").string(), (dir / "a-file").string() + " is not a folder"},
           {dir.string(), "is a folder; give a file name in it"},
           {"/proc/mushroom-report.json", "the folder /proc cannot be written"}}) {
    for (const std::string command : {"arena --a builtin:greedy --b builtin:random --boards 1 --time-ms 1000",
                                      "ladder --program builtin:greedy --program builtin:random --boards 1"}) {
      const fs::path played = dir / "played";
      fs::remove_all(played);
      const ShellResult r = run(command + (command.rfind("arena", 0) == 0 ? " --log-dir " : " --dir ") +
                                played.string() + " --json " + path);
      EXPECT_EQ(r.exit_code, 2) << command << " " << path << "\n" << r.output;
      EXPECT_NE(r.output.find("error: --json " + path + ": " + words), std::string::npos) << r.output;
      EXPECT_FALSE(fs::exists(played / "games.csv")) << command << ": a game was played";
    }
  }
}

// The ladder's table in ratings.json: each program's Elo, games and W-D-L
// by seat as ratings.txt has them.
TEST(Reports, TheLaddersRatingsJsonHoldsItsTable) {
  const fs::path dir = temp_dir("reports-ladder");
  const ShellResult r = run("ladder --dir " + (dir / "l").string() + " --program builtin:greedy --program "
                            "builtin:random --program ab=builtin:alphabeta:depth=1,solver=false --boards 1 "
                            "--time-ms 1000 --json " + (dir / "copy.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir / "l" / "ratings.json");
  const std::string text = read_file((dir / "l" / "ratings.txt").string());
  EXPECT_EQ(j["schema"], "mushroom-ladder-ratings");
  EXPECT_EQ(j["version"], 1);
  ASSERT_EQ(j["programs"].size(), 3u);
  for (const nlohmann::json& p : j["programs"]) {
    const auto seat = [](const nlohmann::json& s) {
      return std::to_string(s["w"].get<int>()) + "-" + std::to_string(s["d"].get<int>()) + "-" +
             std::to_string(s["l"].get<int>());
    };
    const double elo = p["elo"].get<double>();
    // "   1  builtin:greedy      +57  [+10, +104]         6   66.7%  ..."
    const std::string name = p["name"];
    const std::regex row("\\n +" + std::to_string(p["rank"].get<int>()) + "  " + std::regex_replace(name, std::regex("[.+]"), "\\$&") +
                         " +" + std::regex_replace((elo >= 0 ? "+" : "") + format_fixed(elo, 0), std::regex("[+]"), "\\+") +
                         " .* " + std::to_string(p["games"].get<int>()) + " +[0-9.]+% +" + seat(p["first"]) + " +" +
                         seat(p["second"]) + " +" + std::to_string(p["forfeits"].get<int>()) + "\\n");
    EXPECT_TRUE(std::regex_search(text, row)) << name << "\n" << text << "\n" << j.dump(2);
  }
  EXPECT_NE(text.find(std::to_string(j["games"].get<int>()) + " games; anchor " + j["anchor"].get<std::string>()),
            std::string::npos);
  EXPECT_EQ(read_json(dir / "copy.json")["programs"], j["programs"]);
}

// bench --json: the figures of its last line, and its tables.
TEST(Reports, BenchWritesItsFiguresForPrograms) {
  const fs::path dir = temp_dir("reports-bench");
  const std::string set = (dir / "set.txt").string();
  ASSERT_EQ(run("positions --count 20 --seed 3 --out " + set).exit_code, 0);
  const ShellResult r = run("bench movegen --positions " + set + " --seconds 0.05 --skip-naive --json " +
                            (dir / "bench.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir / "bench.json");
  EXPECT_EQ(j["schema"], "mushroom-bench");
  EXPECT_EQ(j["bench"], "movegen");
  EXPECT_EQ(split_lines(r.output).back(), "ns_per_position=" + format_fixed(j["figures"]["ns_per_position"], 2));
  EXPECT_GE(j["tables"]["generators"].size(), 2u);
  const ShellResult refused = run("bench movegen --positions " + set + " --json " + (dir / "no" / "b.json").string());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("--json " + (dir / "no" / "b.json").string() + ": the folder"), std::string::npos)
      << refused.output;
}

// One spelling on every command: --progress, --quiet, --verbose in every
// command's help, bad values refused by name, and what each does to a match.
TEST(Reports, EveryCommandTakesTheOutputOptions) {
  const ShellResult usage = run("--help");
  std::vector<std::string> commands;
  for (const std::string& line : split_lines(usage.output))
    if (line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ')
      commands.push_back(std::string(split_words(line).front()));
  ASSERT_GE(commands.size(), 20u) << usage.output;
  for (const std::string& command : commands) {
    const ShellResult help = run(command + " --help");
    for (const char* option : {"--progress", "-q, --quiet", "-v, --verbose"})
      EXPECT_NE(help.output.find(option), std::string::npos) << command << " lacks " << option;
  }
  ShellResult r = run("arena --a builtin:greedy --b builtin:random --boards 1 --progress sometimes");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("error: --progress must be auto, line or off, got 'sometimes'"), std::string::npos) << r.output;
  r = run("play --quiet --verbose");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--quiet and --verbose"), std::string::npos) << r.output;

  // A log (no terminal): plain lines, each game's and the stage's last.
  r = run("arena --a builtin:greedy --b builtin:random --boards 2 --time-ms 1000");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find('\r'), std::string::npos);
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos);
  EXPECT_NE(r.output.find("] board 1, "), std::string::npos) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex("[0-9:]{8} arena 4/4 games \u00b7 [^\n]* \u00b7 done in 0:00:[0-9]{2}\n")))
      << r.output;
  // Quiet: the report alone.
  r = run("arena --a builtin:greedy --b builtin:random --boards 2 --time-ms 1000 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("A: builtin:greedy = ", 0), 0u) << r.output;
  EXPECT_EQ(r.output.find("] board "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("done in"), std::string::npos) << r.output;
  // play --quiet is the result line alone, as it always was.
  r = run("play --seed 3 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("result: ", 0), 0u) << r.output;
}

}  // namespace
}  // namespace mushroom
