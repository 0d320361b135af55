// End-to-end tests of the training pipeline's commands: selfplay, train and
// the resumable run loop, killed with SIGKILL at two points and resumed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include "nnue/network.h"
#include "selfplay/shard.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

std::string run_command(const std::string& args, int* exit_code) {
  const ShellResult r = run_shell(std::string("'") + MUSHROOM_BIN + "' " + args);
  *exit_code = r.exit_code;
  return r.output;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path("build-test-tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Starts `mushroom run` and kills it with SIGKILL as soon as until() holds
// (or after 120 s). Returns true if it was killed before finishing.
bool run_and_kill(const fs::path& dir, const std::function<bool()>& until) {
  const std::string log = (dir.parent_path() / (dir.filename().string() + ".log")).string();
  BackgroundProcess run({MUSHROOM_BIN, "run", "--config", "testdata/configs/tiny.toml", "--dir", dir.string(),
                         "--parallel", "1"},
                        log);
  return run.kill_when(until, 120);
}

int count_files(const fs::path& dir, const std::string& needle) {
  int n = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::recursive_directory_iterator(dir))
      n += e.is_regular_file() && e.path().filename().string().find(needle) != std::string::npos;
  return n;
}

TEST(Pipeline, CommandsHaveHelp) {
  for (const char* name : {"selfplay", "relabel", "train", "run", "bench nn", "bench labels"}) {
    int code = 0;
    const std::string out = run_command(std::string(name) + " --help", &code);
    EXPECT_EQ(code, 0) << name;
    EXPECT_NE(out.find(std::string("mushroom ") + name), std::string::npos) << out;
  }
}

// `relabel` labels a folder of evaluation data again with the playing
// search, prints how far the labels moved and writes report.json; a second
// call keeps the finished shards, a call with other settings is refused;
// bad options are refused by name.
TEST(Pipeline, RelabelLabelsTheSamePositionsAgain) {
  const fs::path dir = fresh_dir("pipeline_relabel");
  int code = 0;
  std::string out = run_command("selfplay --config testdata/configs/eval-ci.toml --games 3 --dir " +
                                    (dir / "data").string(),
                                &code);
  ASSERT_EQ(code, 0) << out;
  const std::string relabel = "relabel --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() +
                              " --dir " + (dir / "playing").string() + " --set evalplay.label_search=playing";
  out = run_command(relabel, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("labels: playing depth 2, mode search, evaluation hand"), std::string::npos) << out;
  EXPECT_NE(out.find("mushrooms left | samples | proven"), std::string::npos) << out;
  EXPECT_NE(out.find("shards written, 0 already there"), std::string::npos) << out;
  EXPECT_EQ(count_files(dir / "playing", ".h5"), count_files(dir / "data", ".h5"));
  EXPECT_TRUE(fs::exists(dir / "playing" / "report.json"));
  out = run_command(relabel, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find(" 0 shards written"), std::string::npos) << out;
  // Other settings into the same folder would keep its shards as their labels: refused, naming the change.
  out = run_command(relabel + " --set evalplay.label_depth=3", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("holds a pass made with other settings (label_depth was 2, now 3)"), std::string::npos) << out;

  out = run_command(relabel + " --min-left 120 --max-left 80", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("the mushrooms-left range [120, 80] is not within [0, 170]"), std::string::npos) << out;
  out = run_command(relabel + " --set evalplay.label_search=deep", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("label_search"), std::string::npos) << out;
  out = run_command(relabel + " --mode exact", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("needs evalplay.exact_mushrooms"), std::string::npos) << out;
  out = run_command(relabel + " --mode focus", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("relabel mode \"focus\" needs evalplay.focus_label_depth"), std::string::npos) << out;
}

// `relabel` with evalplay.label_probcut needs the fit named with
// --probcut FIT (it does not guess it): without it, exit 2 naming the
// option before any folder is made; with it, the pass labels with the fit
// and settings.json records it.
TEST(Pipeline, RelabelWithLabelProbcutLabelsWithTheFitItIsGiven) {
  const fs::path dir = fresh_dir("pipeline_relabel_probcut");
  int code = 0;
  std::string out = run_command("selfplay --config testdata/configs/eval-ci.toml --games 2 --dir " +
                                    (dir / "data").string(),
                                &code);
  ASSERT_EQ(code, 0) << out;
  const std::string relabel = "relabel --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() +
                              " --set evalplay.label_search=playing --set evalplay.label_probcut=true"
                              " --set probcut.enabled=true";
  out = run_command(relabel + " --dir " + (dir / "refused").string(), &code);
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("--probcut FIT"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir / "refused")) << "the refused pass made its folder";
  out = run_command(relabel + " --dir " + (dir / "pruned").string() +
                        " --probcut models/eval.probcut --eval models/eval.bin --limit 2",
                    &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("fit models/eval.probcut"), std::string::npos) << out;
  const std::string settings = read_file((dir / "pruned" / "settings.json").string());
  EXPECT_NE(settings.find("\"label_probcut\": true"), std::string::npos) << settings;
  EXPECT_NE(settings.find("\"probcut_fit\": \"models/eval.probcut\""), std::string::npos) << settings;
}

// The held-out curve `mushroom train --heldout` wrote into `model_dir` for a
// training of `steps` steps: a row before the first step, after step 1 and
// every max(1, steps / 20) steps from there, and at the end; every row has
// its three figures, and the last row is the trained net's fit, `fit_json`
// (heldout.json), column for column.
void expect_heldout_curve(const fs::path& model_dir, int steps, const std::string& fit_json) {
  const std::string text = read_file((model_dir / "heldout-curve.csv").string());
  const std::vector<std::string> rows = split_lines(text);
  std::vector<int> want = {0};
  for (int step = 0; step + 1 < steps; step += std::max(1, steps / 20)) want.push_back(step + 1);
  want.push_back(steps);
  ASSERT_EQ(rows.size(), want.size() + 1) << text;
  EXPECT_EQ(rows[0], "steps,learned_search_loss,learned_log_loss,learned_search_cells");
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < want.size(); ++i) {
    std::vector<double> row;
    std::stringstream in(rows[i + 1]);
    for (std::string cell; std::getline(in, cell, ',');) row.push_back(std::stod(cell));
    ASSERT_EQ(row.size(), 4u) << rows[i + 1];
    EXPECT_EQ(int(row[0]), want[i]) << rows[i + 1];
    values.push_back(row);
  }
  const char* columns[] = {"learned_search_loss", "learned_log_loss", "learned_search_cells"};
  for (int c = 0; c < 3; ++c) {
    const std::string key = std::string("\"") + columns[c] + "\": ";
    const size_t at = fit_json.find(key);
    ASSERT_NE(at, std::string::npos) << key << fit_json;
    const double fit = std::stod(fit_json.substr(at + key.size()));
    EXPECT_NEAR(values.back()[c + 1], fit, 1e-8 * std::fabs(fit)) << columns[c] << "\n" << text << fit_json;
  }
  // The net moved between the first row (the starting weights) and the last.
  EXPECT_GT(std::fabs(values.front()[1] - values.back()[1]), 1e-9) << text;
}

// `bench labels` plays and times the learned evaluation's self-play as a
// run's actor would, and `train` trains an evaluation from its shards when
// the config says run.model = "eval".
TEST(Pipeline, BenchLabelsAndTrainMakeAndLearnEvaluationData) {
  const fs::path dir = fresh_dir("pipeline_labels");
  int code = 0;
  std::string out = run_command("bench labels --config testdata/configs/eval-ci.toml --games 6 --dir " +
                                    (dir / "data").string() + " --set evalplay.label_nodes=500",
                                &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("label_depth=2 label_nodes=500"), std::string::npos) << out;
  EXPECT_NE(out.find("6 games, "), std::string::npos) << out;
  EXPECT_NE(out.find("positions by mushrooms left:"), std::string::npos) << out;
  EXPECT_NE(out.find("\npositions_per_second="), std::string::npos) << out;
  EXPECT_GT(count_files(dir / "data", ".h5"), 0);
  out = run_command("bench labels --config testdata/configs/eval-ci.toml --games 2 --dir " + (dir / "data").string(),
                    &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("is not empty"), std::string::npos) << out;

  out = run_command("train --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() + " --dir " +
                        (dir / "model").string() + " --steps 20 --set evalnet.target=margin --set evalnet.seat_buckets=2",
                    &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("target margin"), std::string::npos) << out;
  EXPECT_NE(out.find("20 steps"), std::string::npos) << out;
  const nnue::Network trained = nnue::read_network((dir / "model" / "eval.bin").string());
  EXPECT_EQ(trained.shape.seat_buckets, 2);
  // --heldout measures the trained evaluation on other positions (here the
  // same shards, read as held out) and writes the fit beside the model; a
  // folder without positions is refused by name before any training.
  EXPECT_FALSE(fs::exists(dir / "model" / "heldout-curve.csv")) << "no --heldout, no curve";
  for (const std::string ema : {"0", "0.9"}) {
    // Under ema_decay the trained net is the steps' average: the curve's
    // last row must be that net, not the last step's raw weights.
    const fs::path measured = dir / ("measured-ema-" + ema);
    out = run_command("train --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() + " --dir " +
                          measured.string() + " --steps 40 --set evalnet.ema_decay=" + ema + " --heldout " +
                          (dir / "data").string(),
                      &code);
    ASSERT_EQ(code, 0) << out;
    EXPECT_NE(out.find("train: held out: "), std::string::npos) << out;
    EXPECT_NE(out.find("search-score loss"), std::string::npos) << out;
    const std::string fit = read_file((measured / "heldout.json").string());
    EXPECT_EQ(fit.find("\"fit_positions\": 0"), std::string::npos) << fit;
    expect_heldout_curve(measured, 40, fit);
  }
  fs::create_directories(dir / "empty");
  out = run_command("train --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() + " --dir " +
                        (dir / "unmeasured").string() + " --steps 5 --heldout " + (dir / "empty").string(),
                    &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("holds no learned-evaluation positions"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir / "unmeasured" / "eval.bin"));
  // A second call goes on from --out/eval.bin; another architecture is refused by name.
  out = run_command("train --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() + " --dir " +
                        (dir / "model").string() + " --steps 5",
                    &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("asks for H=16 L1=8 L2=8"), std::string::npos) << out;
}

// `config --check` takes many files; `config --get` prints a key's value;
// `run --set` overrides a key, checked as the file is, and the run saves it
// with its config.
TEST(Pipeline, ConfigChecksManyFilesAndRunTakesOverrides) {
  int code = 0;
  std::string out = run_command("config --check configs/cpu-small.toml configs/gpu.toml configs/gpu-small.toml", &code);
  EXPECT_EQ(code, 0) << out;
  for (const char* f : {"configs/cpu-small.toml: ok", "configs/gpu.toml: ok", "configs/gpu-small.toml: ok"})
    EXPECT_NE(out.find(f), std::string::npos) << out;
  out = run_command("config --get selfplay.threads configs/gpu.toml", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out, "12\n");
  out = run_command("config --get selfplay.device configs/gpu.toml --set selfplay.device=cpu --set selfplay.backend=cpu",
                    &code);
  EXPECT_EQ(out, "\"cpu\"\n");
  out = run_command("config --check configs/gpu.toml --set selfplay.backend=cpu", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("selfplay.device = \"cuda\" needs selfplay.backend = \"torch\""), std::string::npos) << out;

  const fs::path dir = fresh_dir("pipeline_set") / "run";
  out = run_command("run --config testdata/configs/tiny.toml --dir " + dir.string() + " --set selfplay.gamez=2", &code);
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("unknown key 'selfplay.gamez'"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir / "config.toml")) << "a run began with a bad override";
  out = run_command("run --config testdata/configs/tiny.toml --dir " + dir.string() +
                        " --generations 1 --parallel 1 --set selfplay.games=3 --set gate.enabled=false",
                    &code);
  ASSERT_EQ(code, 0) << out;
  bool saved = false;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".toml" && read_file(e.path().string()).find("#   selfplay.games=3") != std::string::npos)
      saved = true;
  EXPECT_TRUE(saved) << "the run's saved config does not name its overrides";
  // Provenance: the generation record names the build and the config's hash.
  const std::string record = read_file((dir / "metrics" / "gen-0001.json").string());
  EXPECT_NE(record.find("\"mushroom_version\":\"mushroom "), std::string::npos) << record;
  EXPECT_NE(record.find("\"config_hash\":\""), std::string::npos) << record;
}

TEST(Pipeline, RunResumesAfterKillsAndLosesNothing) {
  const fs::path dir = fresh_dir("pipeline_run") / "run";
  // Kill 1: right after generation 1's model appears (gating not finished).
  EXPECT_TRUE(run_and_kill(dir, [&] { return fs::exists(dir / "models" / "gen-0001.h5"); }));
  ASSERT_TRUE(fs::exists(dir / "models" / "gen-0001.h5"));
  const std::string model1 = read_file((dir / "models" / "gen-0001.h5").string());
  // Kill 2: during generation 2's self-play, once a shard is written.
  EXPECT_TRUE(run_and_kill(dir, [&] { return count_files(dir / "data" / "gen-0002", "shard-") > 0; }));
  // The same command again finishes the run.
  int code = 0;
  const std::string out = run_command("run --config testdata/configs/tiny.toml --dir " + dir.string() + " --parallel 1", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("run complete: 2 generations"), std::string::npos) << out;
  // Generation 1 was trained before kill 1; its record, written after it, still says how (from its metrics).
  const std::string record1 = read_file((dir / "metrics" / "gen-0001.json").string());
  EXPECT_NE(record1.find("\"train_steps\":5"), std::string::npos) << record1;
  EXPECT_EQ(record1.find("\"loss\":0,"), std::string::npos) << record1;
  // Generation 1 was not redone: its model is byte for byte the one before the kills.
  EXPECT_EQ(read_file((dir / "models" / "gen-0001.h5").string()), model1);
  EXPECT_EQ(out.find("== generation 1 "), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(dir / "metrics" / "gen-0001.json"));
  EXPECT_TRUE(fs::exists(dir / "metrics" / "gen-0002.json"));
  EXPECT_TRUE(fs::exists(dir / "models" / "gen-0002.h5"));
  EXPECT_TRUE(fs::exists(dir / "plots" / "run.png"));
  EXPECT_EQ(count_files(dir, ".tmp"), 0);
  // Every generation holds exactly its 4 games, in readable shards.
  for (const char* gen : {"gen-0001", "gen-0002"}) {
    int64_t games = 0;
    for (const auto& e : fs::directory_iterator(dir / "data" / gen))
      if (e.path().extension() == ".h5") games += selfplay::read_shard(e.path().string()).meta.games;
    EXPECT_EQ(games, 4) << gen;
    // ...and sample game logs with the search's notes, for the viewer.
    EXPECT_GT(count_files(dir / "data" / gen / "games", "game-"), 0) << gen;
  }
  // The dashboard links sample games rendered by the viewer.
  const std::string dashboard = read_file((dir / "dashboard.html").string());
  EXPECT_NE(dashboard.find("score by generation"), std::string::npos);
  EXPECT_NE(dashboard.find("href=\"games/gen-0001-game-"), std::string::npos);
  EXPECT_GT(count_files(dir / "games", "gen-0001-game-"), 0);
}

// Ctrl-C (SIGINT) in the middle of generation 1's self-play: the run says
// what it keeps and how to resume, and still ends by the signal. Its
// dashboard was there from the start, saying that no generation had
// finished. The same command again says how many of the generation's games
// were kept, and finishes it.
TEST(Pipeline, CtrlCSaysWhatIsKeptAndTheResumeCountsTheKeptGames) {
  const fs::path dir = fresh_dir("pipeline_ctrl_c") / "run";
  const fs::path log = dir.parent_path() / "run.log";
  const std::vector<std::string> args = {MUSHROOM_BIN, "run", "--config", "testdata/configs/tiny.toml", "--dir",
                                         dir.string(), "--parallel", "1", "--generations", "1", "--set",
                                         "selfplay.games=12"};
  const pid_t pid = fork();
  if (pid == 0) {
    // A test run under nohup or as a background job inherits SIGINT
    // ignored, and mushroom run keeps it so: this run is one Ctrl-C stops.
    signal(SIGINT, SIG_DFL);
    freopen(log.c_str(), "w", stdout);
    dup2(fileno(stdout), STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(MUSHROOM_BIN, argv.data());
    _exit(127);
  }
  std::string first_dashboard;
  bool record_when_read = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int status = 0;
  bool interrupted = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (first_dashboard.empty() && fs::exists(dir / "dashboard.html")) {
      record_when_read = fs::exists(dir / "metrics" / "gen-0001.json");
      first_dashboard = read_file((dir / "dashboard.html").string());
    }
    bool shard = false;  // a finished one, not its temp file
    if (fs::exists(dir / "data" / "gen-0001"))
      for (const auto& e : fs::directory_iterator(dir / "data" / "gen-0001"))
        shard = shard || (e.path().extension() == ".h5" && e.path().string().find(".tmp") == std::string::npos);
    if (!first_dashboard.empty() && shard) {
      kill(pid, SIGINT);
      waitpid(pid, &status, 0);
      interrupted = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!interrupted) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(interrupted) << read_file(log.string());
  const std::string out = read_file(log.string());
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status << "\n" << out;
  EXPECT_NE(out.find("mushroom run: stopped (Ctrl-C). Kept in " + dir.string() + ": every finished generation"),
            std::string::npos) << out;
  EXPECT_NE(out.find("run the same command again:\n  mushroom run --config testdata/configs/tiny.toml --dir " +
                     dir.string() + " --parallel 1 --generations 1 --set selfplay.games=12\n"),
            std::string::npos) << out;
  // Read before generation 1 ended: the page written at the run's start.
  ASSERT_FALSE(record_when_read) << "the first dashboard was read after generation 1 ended";
  EXPECT_NE(first_dashboard.find("No generation has finished yet"), std::string::npos) << first_dashboard;
  // The games in finished shards are kept, and the resume says how many.
  int64_t kept = 0;
  for (const auto& e : fs::directory_iterator(dir / "data" / "gen-0001"))
    if (e.path().extension() == ".h5") kept += selfplay::read_shard_meta(e.path().string()).games;
  ASSERT_GT(kept, 0);
  int code = 0;
  const std::string resumed = run_command("run --config testdata/configs/tiny.toml --dir " + dir.string() +
                                              " --parallel 1 --generations 1 --set selfplay.games=12",
                                          &code);
  ASSERT_EQ(code, 0) << resumed;
  ASSERT_LT(kept, 12) << "the stop came after self-play had finished: the resume has nothing to count";
  EXPECT_NE(resumed.find("resuming: " + std::to_string(kept) + " of 12 games of generation 1 already played"),
              std::string::npos) << resumed;
  EXPECT_NE(resumed.find("run complete: 1 generations"), std::string::npos) << resumed;
  EXPECT_EQ(read_file((dir / "dashboard.html").string()).find("No generation has finished yet"), std::string::npos);
  // The generation's record counts its samples in every shard, the kept
  // ones included, as it counts its games.
  int64_t samples = 0;
  for (const auto& e : fs::directory_iterator(dir / "data" / "gen-0001"))
    if (e.path().extension() == ".h5") {
      int64_t n = 0;
      selfplay::read_shard_meta(e.path().string(), &n);
      samples += n;
    }
  const std::string record = read_file((dir / "metrics" / "gen-0001.json").string());
  EXPECT_NE(record.find("\"selfplay_games\":12,"), std::string::npos) << record;
  EXPECT_NE(record.find("\"selfplay_samples\":" + std::to_string(samples) + ","), std::string::npos)
      << samples << " samples in the shards: " << record;
}

// [ladder] every = 1: the candidate plays a gauntlet against the reference
// programs on the run's ladder, and its rating reaches the record and the
// dashboard.
TEST(Pipeline, EachCandidateIsPlacedOnTheRunsLadder) {
  const fs::path dir = fresh_dir("pipeline_ladder") / "run";
  int code = 0;
  const std::string out =
      run_command("run --config testdata/configs/tiny-ladder.toml --dir " + dir.string() + " --parallel 1", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("ladder: gen-0001 rated "), std::string::npos) << out;
  const std::string ratings = read_file((dir / "ladder" / "ratings.txt").string());
  EXPECT_NE(ratings.find("gen-0001"), std::string::npos) << ratings;
  EXPECT_NE(ratings.find("8 games; anchor greedy = 0"), std::string::npos) << ratings;
  const std::string record = read_file((dir / "metrics" / "gen-0001.json").string());
  EXPECT_NE(record.find("\"ladder_anchor\":\"greedy\""), std::string::npos) << record;
  const std::string dashboard = read_file((dir / "dashboard.html").string());
  EXPECT_NE(dashboard.find("rating on the run&#39;s ladder"), std::string::npos);
  EXPECT_NE(dashboard.find("href=\"ladder/ladder.html\""), std::string::npos);
  const std::string page = read_file((dir / "ladder" / "ladder.html").string());
  EXPECT_NE(page.find("rating by generation"), std::string::npos);
  // Resumed for another generation with a reference that now names another program: refused by name
  // before the generation's self-play, not after its training.
  const std::string resumed = run_command("run --config testdata/configs/tiny-ladder.toml --dir " + dir.string() +
                                              " --parallel 1 --generations 2 --set 'ladder.programs=greedy=builtin:random'",
                                          &code);
  EXPECT_NE(code, 0) << resumed;
  EXPECT_NE(resumed.find("program 'greedy' of the ladder in " + (dir / "ladder").string()), std::string::npos) << resumed;
  EXPECT_NE(resumed.find("give the new program another name"), std::string::npos) << resumed;
  EXPECT_NE(resumed.find("move " + (dir / "ladder").string() + " aside"), std::string::npos) << resumed;
  EXPECT_EQ(resumed.find("== generation 2"), std::string::npos) << resumed;
  EXPECT_FALSE(fs::exists(dir / "data" / "gen-0002"));
  // The advice works: with the old ladder moved aside, the run resumes and
  // starts a new one.
  fs::rename(dir / "ladder", dir.parent_path() / "ladder-old");
  const std::string moved = run_command("run --config testdata/configs/tiny-ladder.toml --dir " + dir.string() +
                                            " --parallel 1 --generations 2 --set 'ladder.programs=greedy=builtin:random'",
                                        &code);
  ASSERT_EQ(code, 0) << moved;
  EXPECT_NE(moved.find("ladder: gen-0002 rated "), std::string::npos) << moved;
  const std::string programs = read_file((dir / "ladder" / "programs.txt").string());
  EXPECT_EQ(programs.find("gen-0001"), std::string::npos) << programs;
  EXPECT_NE(programs.find("gen-0002"), std::string::npos) << programs;
  // The old ladder's games stay readable where it was moved.
  const std::string old_programs = read_file((dir.parent_path() / "ladder-old" / "programs.txt").string());
  EXPECT_NE(old_programs.find("gen-0001"), std::string::npos) << old_programs;
  EXPECT_TRUE(fs::exists(dir.parent_path() / "ladder-old" / "games.csv"));
}

// `mushroom bot` with no arguments is the contest bot: alphabeta with the
// learned evaluation models/eval.bin on the real 10 s bank, here pinned to
// one core.
TEST(Pipeline, DefaultBotPlaysLegallyOnTheRealClock) {
  const fs::path dir = fresh_dir("default_bot");
  int code = 0;
  const std::string out = run_command("arena --a \"" + std::string(MUSHROOM_BIN) +
                                          " bot\" --b builtin:greedy --boards 1 --seed 9 --pin --log-dir " +
                                          dir.string(),
                                      &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("mean margin (A cells - builtin:greedy cells)"), std::string::npos) << out;
  EXPECT_EQ(out.find("forfeits:"), std::string::npos) << out;
  EXPECT_NE(out.find("over 2 games (a forfeit counts -4 for the side that forfeited)"), std::string::npos) << out;
}

TEST(Pipeline, SelfplayThenTrainAndABadShardIsNamed) {
  const fs::path dir = fresh_dir("pipeline_cmds");
  int code = 0;
  std::string out = run_command("selfplay --config testdata/configs/tiny.toml --dir " + (dir / "data").string() + " --games 3", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("selfplay: 3/3 games"), std::string::npos) << out;
  write_file_atomic((dir / "data" / "shard-zzz.h5").string(), "garbage");
  out = run_command("train --config testdata/configs/tiny.toml --data " + (dir / "data").string() + " --dir " +
                        (dir / "model").string() + " --steps 3",
                    &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("skipping shard"), std::string::npos) << out;
  EXPECT_NE(out.find("shard-zzz.h5"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(dir / "model" / "model.h5"));
  EXPECT_TRUE(fs::exists(dir / "model" / "optimizer.pt"));
  // The trained model plays through the bot's nn agent.
  out = run_command("play --first nn:model=" + (dir / "model" / "model.h5").string() + ",sims=8 --second greedy --quiet", &code);
  EXPECT_EQ(code, 0) << out;
  // A config with an unknown key is refused, naming the key.
  write_file_atomic((dir / "bad.toml").string(), "[selfplay]\nworkerz = 2\n");
  out = run_command("selfplay --config " + (dir / "bad.toml").string() + " --dir " + (dir / "x").string(), &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("unknown key 'selfplay.workerz'"), std::string::npos) << out;
}

// With run.model = "eval", `selfplay --model` plays and labels with the
// learned evaluation given, into shards that `train` of the same config
// learns from; a conv net given there is refused, naming the file.
TEST(Pipeline, SelfplayPlaysALearnedEvaluation) {
  const fs::path dir = fresh_dir("pipeline_eval_selfplay");
  int code = 0;
  std::string out = run_command("selfplay --config testdata/configs/eval-ci.toml --model models/eval.bin --dir " +
                                    (dir / "data").string() + " --games 3 --set evalplay.label_depth=1",
                                &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("selfplay: 3/3 games"), std::string::npos) << out;
  int shards = 0;
  for (const auto& entry : fs::directory_iterator(dir / "data")) {
    if (entry.is_directory()) continue;  // games/: the sample game logs
    const selfplay::ShardMeta meta = selfplay::read_shard_meta(entry.path().string());
    EXPECT_EQ(meta.model_id, "models/eval.bin");
    EXPECT_EQ(meta.game, selfplay::mushroom_eval_schema().game);
    ++shards;
  }
  EXPECT_GT(shards, 0);
  out = run_command("train --config testdata/configs/eval-ci.toml --data " + (dir / "data").string() + " --dir " +
                        (dir / "net").string() + " --steps 2",
                    &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_TRUE(fs::exists(dir / "net" / "eval.bin"));
  out = run_command("selfplay --config testdata/configs/eval-ci.toml --model models/default.h5 --dir " +
                        (dir / "x").string() + " --games 1",
                    &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("models/default.h5"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir / "x"));
}

// The old spellings (docs/cli.md) still work and say what to
// write instead; an old and a new spelling of one option together are refused.
TEST(Pipeline, OldSpellingsStillWorkAndSayWhatToWrite) {
  const fs::path dir = fresh_dir("pipeline_old_spellings");
  int code = 0;
  std::string out = run_command("selfplay --config testdata/configs/tiny.toml --out " + (dir / "data").string() +
                                    " --games 2 --jobs 1", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("mushroom selfplay: --out is an old spelling; write --dir"), std::string::npos) << out;
  EXPECT_NE(out.find("mushroom selfplay: --jobs is an old spelling; write --generations"), std::string::npos) << out;
  EXPECT_NE(out.find("selfplay: 2/2 games"), std::string::npos) << out;
  out = run_command("train --config testdata/configs/tiny.toml --data " + (dir / "data").string() + " --out " +
                        (dir / "model").string() + " --steps 2", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("mushroom train: --out is an old spelling; write --dir"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(dir / "model" / "model.h5"));
  out = run_command("selfplay --config testdata/configs/tiny.toml --dir " + (dir / "a").string() + " --out " +
                        (dir / "b").string(), &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("--out is the old spelling of --dir: give only --dir"), std::string::npos) << out;
  out = run_command("run --config testdata/configs/tiny.toml --dir " + (dir / "run").string() +
                        " --threads 1 --parallel 1", &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("--threads is the old spelling of --parallel: give only --parallel"), std::string::npos) << out;
  write_file_atomic((dir / "old.toml").string(), "[selfplay]\nworkers = 1\n");
  out = run_command("config --get selfplay.threads " + (dir / "old.toml").string(), &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("selfplay.workers is an old spelling; write selfplay.threads"), std::string::npos) << out;
}

}  // namespace
}  // namespace mushroom
