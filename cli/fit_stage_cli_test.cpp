// The learned evaluation's fit stage end to end (run/fit_stage.h): a run
// from --init models/eval.bin, killed with SIGKILL in the middle of its
// candidate's fit and resumed, makes the same fit an unkilled fit makes;
// its export carries the fit, before and after a promotion.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const char* kConfig = "testdata/configs/fit-ci.toml";

std::string run_command(const std::string& args, int* exit_code) {
  const ShellResult r = run_shell(std::string("'") + MUSHROOM_BIN + "' " + args);
  *exit_code = r.exit_code;
  return r.output;
}

// The fit's own lines: what the fit says, without its header comments
// (which name the command that made it).
std::string fit_lines(const std::string& path) {
  std::string out;
  for (const std::string& line : split_lines(read_file(path)))
    if (!line.empty() && line[0] != '#') out += line + "\n";
  return out;
}

// Starts the run and kills it with SIGKILL once its log holds `line` (or
// after 300 s). Returns true if it was killed before finishing.
bool run_until_line(const fs::path& dir, const fs::path& log, const std::string& line) {
  BackgroundProcess run({MUSHROOM_BIN, "run", "--config", kConfig, "--dir", dir.string(), "--init", "models/eval.bin",
                         "--parallel", "1"},
                        log.string());
  return run.kill_when([&] { return fs::exists(log) && read_file(log.string()).find(line) != std::string::npos; },
                       300);
}

// A Slurm actor that starts before the gatekeeper, labelling with the
// --init model's fit (label_probcut), adopts the fit beside --init as the
// gatekeeper would, rather than fitting the model itself: its log has no
// "probcut: fitting" and the run's init.probcut has the bytes of
// models/eval.probcut.
TEST(FitStage, AnActorAdoptsTheFitBesideInitRatherThanFittingIt) {
  const fs::path root = fs::path("build-test-tmp") / "fit_stage_actor";
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path dir = root / "run", log = root / "actor.log";
  BackgroundProcess actor({MUSHROOM_BIN, "run", "--role", "actor", "--config", kConfig, "--dir", dir.string(),
                           "--init", "models/eval.bin", "--poll-seconds", "0.2", "--parallel", "1", "--chunk-games",
                           "2", "--set", "evalplay.label_search=playing", "--set", "evalplay.label_probcut=true"},
                          log.string());
  const auto log_has = [&](const std::string& words) {
    return fs::exists(log) && read_file(log.string()).find(words) != std::string::npos;
  };
  // One chunk played (or the actor gave up): then stop it.
  ASSERT_TRUE(wait_until([&] { return log_has("generation 1: ") || actor.wait_exit(0); }, 300)) << read_file(log.string());
  std::ofstream(dir / "stop") << "\n";
  ASSERT_TRUE(actor.wait_exit(60));
  const std::string text = read_file(log.string());
  EXPECT_EQ(actor.exit_code(), 0) << text;
  EXPECT_NE(text.find("generation 1: "), std::string::npos) << text;
  EXPECT_EQ(text.find("probcut: fitting"), std::string::npos) << "the actor fitted the --init model itself:\n" << text;
  EXPECT_NE(text.find("the --init model's fit"), std::string::npos) << text;
  EXPECT_EQ(read_file((dir / "models" / "init.probcut").string()), read_file("models/eval.probcut"));
}

TEST(FitStage, ARunKilledInTheMiddleOfAFitMakesTheSameFitAndExportsIt) {
  const fs::path root = fs::path("build-test-tmp") / "fit_stage";
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path dir = root / "run";
  const fs::path models = dir / "models";
  // Killed after the candidate's fit has played its first game of forty,
  // before it is written.
  ASSERT_TRUE(run_until_line(dir, root / "killed.log", "fit 1/40 games"))
      << read_file((root / "killed.log").string());
  EXPECT_TRUE(fs::exists(models / "gen-0001.eval"));
  EXPECT_FALSE(fs::exists(models / "gen-0001.probcut")) << "the kill came after the fit";
  // The --init model's fit was copied from beside it, not made again.
  EXPECT_EQ(read_file((models / "init.probcut").string()), read_file("models/eval.probcut"));
  EXPECT_EQ(read_file((models / "init.eval").string()), read_file("models/eval.bin"));

  // The same command again finishes the run: the fit, then the gate with it.
  int code = 0;
  const std::string resumed =
      run_command(std::string("run --config ") + kConfig + " --dir " + dir.string() + " --init models/eval.bin --parallel 1",
                  &code);
  ASSERT_EQ(code, 0) << resumed;
  EXPECT_NE(resumed.find("probcut: fitting " + (models / "gen-0001.eval").string()), std::string::npos) << resumed;
  EXPECT_EQ(resumed.find("probcut: fitting " + (models / "init.eval").string()), std::string::npos) << resumed;
  EXPECT_NE(resumed.find("gate: candidate scores"), std::string::npos) << resumed;
  ASSERT_TRUE(fs::exists(models / "gen-0001.probcut"));
  EXPECT_EQ(fit_lines((models / "gen-0001.probcut").string()).find("evaluation hand"), std::string::npos);
  // ...the same fit as one made whole, by `probcut-fit` at other threads.
  const std::string whole = (root / "whole.probcut").string();
  const std::string fitted = run_command("probcut-fit --eval " + (models / "gen-0001.eval").string() + " --out " + whole +
                                             " --games 40 --threads 2 --play-depth 1 --sample-rate 1 --max-depth 4 --seed 1",
                                         &code);
  ASSERT_EQ(code, 0) << fitted;
  EXPECT_EQ(fit_lines((models / "gen-0001.probcut").string()), fit_lines(whole));
  EXPECT_NE(fit_lines(whole).find("pair "), std::string::npos) << "the test's fit fits no pair: " << fit_lines(whole);

  // Nothing promoted (promote_score = 1): the run exports its --init model, with its fit.
  EXPECT_EQ(read_file((models / "promoted.txt").string()), "init.eval\n");
  const std::string init_export =
      run_command("export-bot --eval " + dir.string() + " --out " + (root / "init.cpp").string(), &code);
  ASSERT_EQ(code, 0) << init_export;
  EXPECT_NE(init_export.find("exporting " + (models / "init.eval").string()), std::string::npos) << init_export;
  EXPECT_NE(init_export.find("with its Multi-ProbCut fit " + (models / "init.probcut").string()), std::string::npos)
      << init_export;
  EXPECT_NE(read_file((root / "init.cpp").string()).find(read_file((models / "init.probcut").string())),
            std::string::npos);
  // A promoted candidate exports with its own fit.
  write_file_atomic((models / "promoted.txt").string(), "gen-0001.eval\n");
  const std::string exported =
      run_command("export-bot --eval " + dir.string() + " --out " + (root / "gen1.cpp").string(), &code);
  ASSERT_EQ(code, 0) << exported;
  EXPECT_NE(exported.find("with its Multi-ProbCut fit " + (models / "gen-0001.probcut").string()), std::string::npos)
      << exported;
  EXPECT_NE(read_file((root / "gen1.cpp").string()).find(read_file((models / "gen-0001.probcut").string())),
            std::string::npos);
  EXPECT_EQ(exported.find("warning"), std::string::npos) << exported;
  // An export without a fit says so.
  const std::string bare = run_command("export-bot --eval " + (models / "gen-0001.eval").string() + " --out " +
                                           (root / "bare.cpp").string(),
                                       &code);
  ASSERT_EQ(code, 0) << bare;
  EXPECT_NE(bare.find("warning: no Multi-ProbCut fit"), std::string::npos) << bare;
  EXPECT_NE(bare.find("the bot will search without ProbCut"), std::string::npos) << bare;
  // A pointer at a file outside the run (runs started with --init before
  // they kept a copy) is named, not "cannot open file".
  write_file_atomic((models / "promoted.txt").string(), "eval.bin\n");
  const std::string outside =
      run_command("export-bot --eval " + dir.string() + " --out " + (root / "x.cpp").string(), &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(outside.find("names eval.bin, which is not in " + models.string()), std::string::npos) << outside;
  fs::remove_all(root);
}

}  // namespace
}  // namespace mushroom
