// The learner stage of the "eval" pipeline (run/eval_pipeline.h): across
// generations whose config changes the net's shape, resumed after its
// candidate was written but before the generation's record, and stopped
// between its training and its candidate.
#include "run/eval_pipeline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "run/pipeline.h"
#include "run/run_config.h"
#include "run/run_dir.h"
#include "run/run_loop.h"
#include "train/nnue/eval_test_util.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::run {
namespace {

// A run folder with generation 1's self-play (six games), and a config
// training a small evaluation for 5 steps with Adam on one thread.
RunDir small_eval_run(const std::string& name) {
  const RunDir run{test_scratch_dir() / name, ".eval"};
  std::filesystem::remove_all(run.root);
  train::selfplay_window(run.data(1), 6);
  run.prepare();
  return run;
}

RunConfig small_adam_config() {
  return parse_run_config(
      "[run]\nmodel = \"eval\"\n[evalnet]\nhidden = 16\nl1 = 8\nl2 = 8\n[train]\nsteps = 5\nbatch_size = 64\n"
      "threads = 1\noptimizer = \"adam\"\n",
      "test.toml");
}

// A run whose config changes the architecture between generations (runs
// resume with an edited config) trains the next generation from fresh
// weights of the new shape, and says so; an unchanged one goes on from the
// previous generation's weights.
TEST(EvalPipeline, ARunThatChangesTheArchitectureStartsThatGenerationAfresh) {
  const RunDir run = small_eval_run("eval_arch_change");
  write_file_atomic(run.model(1).string(), nnue::serialize_network(train::lively_model(7)));  // H=32 L1=8 L2=8
  const RunConfig config = parse_run_config(
      "[run]\nmodel = \"eval\"\n[evalnet]\nhidden = 16\nl1 = 8\nl2 = 8\nseat_buckets = 2\n[train]\nsteps = 5\n"
      "batch_size = 64\nthreads = 1\noptimizer = \"adam\"\n",
      "test.toml");
  std::vector<std::string> lines;
  const StageLog log = [&](const std::string& line) { lines.push_back(line); };
  eval_pipeline(config).learn(run, 2, "", log);
  const nnue::Network second = nnue::read_network(run.model(2).string());
  EXPECT_EQ(second.shape.to_string(), "H=16 L1=8 L2=8, 1 phase x 2 seat buckets");
  bool said = false;
  for (const std::string& l : lines) said = said || l.find("starts from fresh weights") != std::string::npos;
  EXPECT_TRUE(said);
  lines.clear();
  eval_pipeline(config).learn(run, 3, "", log);  // the same shape: it goes on
  for (const std::string& l : lines) EXPECT_EQ(l.find("fresh weights"), std::string::npos) << l;
  EXPECT_EQ(nnue::read_network(run.model(3).string()).shape, second.shape);
  // A model the user asked to start from (--init) is never swapped for fresh weights: another shape is an error.
  const RunDir other{run.root / "other", ".eval"};
  other.prepare();
  try {
    eval_pipeline(config).learn(other, 1, run.model(1).string(), log);
    ADD_FAILURE() << "an --init model of another architecture was not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the evaluation to train from is H=32 L1=8 L2=8 but [evalnet] asks for H=16"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(run.root);
}

// A run stopped after its learner wrote generation 1's candidate and
// training metrics and before the generation's record (the state a kill
// between the two leaves; built here directly, not by timing a kill) is
// resumed: the learner stage finds the candidate and returns the training
// its summary holds, so the record says what an unkilled run's says (steps,
// samples seen, and the loss: the mean of the last steps, not the last
// step's, which the kill harness found recorded), and the candidate is not
// trained again.
TEST(EvalPipeline, AResumedRunRecordsTheTrainingOfACandidateMadeBeforeTheStop) {
  const std::filesystem::path root = test_scratch_dir() / "eval_resume_record";
  std::filesystem::remove_all(root);
  const RunDir run{root / "run", ".eval"};
  const std::string config_path = (root / "run.toml").string();
  std::filesystem::create_directories(root);
  write_file_atomic(config_path,
                    "[run]\nmodel = \"eval\"\ngenerations = 1\nseed = 5\n[selfplay]\ngames = 6\n[evalplay]\n"
                    "label_depth = 2\n[evalnet]\nhidden = 16\nl1 = 8\nl2 = 8\n[train]\nsteps = 20\nbatch_size = 64\n"
                    "threads = 1\noptimizer = \"adam\"\n[gate]\nenabled = false\n[eval]\nevery = 0\n");
  train::selfplay_window(run.data(1), 6);  // generation 1's self-play, complete
  run.prepare();
  const RunConfig config = load_run_config(config_path, {});
  std::vector<std::string> lines;
  const StageLog log = [&](const std::string& line) { lines.push_back(line); };
  const train::TrainStats trained = eval_pipeline(config).learn(run, 1, "", log);  // the learner, before the stop
  ASSERT_TRUE(std::filesystem::exists(run.model(1)));
  ASSERT_FALSE(std::filesystem::exists(run.record(1)));
  const std::vector<view::TrainLine> metrics = view::read_train_lines(run.train_metrics(1).string());
  ASSERT_FALSE(metrics.empty());
  const view::TrainLine& last = metrics.back();
  ASSERT_EQ(last.step, 20);
  ASSERT_EQ(trained.steps, 20);
  ASSERT_GT(trained.loss, 0);
  ASSERT_GT(last.samples_seen, 0);
  // The mean of steps 19 and 20 is not step 20's loss: the record's loss
  // can tell the summary from the last training line.
  ASSERT_NE(trained.loss, last.loss);
  // Training is seeded, so a candidate trained again would be the same
  // bytes: the one the stop left is made unlike any training's output.
  nnue::Network marked = nnue::read_network(run.model(1).string());
  marked.out_bias[0] += 123.0f;
  write_file_atomic(run.model(1).string(), nnue::serialize_network(marked));
  const std::string candidate = read_file(run.model(1).string());

  lines.clear();
  RunOptions options;
  options.config_path = config_path;
  options.dir = run.root.string();
  options.threads = 1;
  options.log = log;
  run_training_loop(options);
  ASSERT_TRUE(std::filesystem::exists(run.record(1)));
  const view::GenerationRecord record = view::read_generation_record(run.record(1).string());
  EXPECT_EQ(record.train_steps, trained.steps);
  EXPECT_EQ(record.loss, trained.loss);  // exactly: JSON keeps a double's every bit
  EXPECT_EQ(record.samples_seen, trained.samples_seen);
  EXPECT_EQ(record.samples_seen, last.samples_seen);
  EXPECT_EQ(read_file(run.model(1).string()), candidate) << "the candidate was trained again";
  bool complete = false;
  for (const std::string& l : lines) complete = complete || l.find("selfplay: already complete") != std::string::npos;
  EXPECT_TRUE(complete) << "generation 1's self-play was not found complete";
  std::filesystem::remove_all(root);
}

// A training summary reads back as written (a loss that was not finite as
// NaN). One cut short, of another generation, with a field of the wrong
// type, of two lines, or disagreeing with the training lines' last step
// (another training's) is refused naming the file; without one (a run from
// before it) the last training line is read.
TEST(EvalPipeline, ATrainingSummaryReadsBackAndABadOneIsRefusedByName) {
  const RunDir run{test_scratch_dir() / "eval_train_summary", ".eval"};
  std::filesystem::remove_all(run.root);
  run.prepare();
  train::TrainStats stats;
  stats.steps = 60;
  stats.samples_seen = 3840;
  stats.learning_rate = 1e-4;
  stats.loss = 0.0010504643432796001;
  stats.value = 0.25;
  stats.policy = std::nan("");
  stats.score = 0.5;
  stats.ownership = 0.75;
  stats.policy_entropy = 1.5;
  write_trained_stats(run, 3, stats);
  const train::TrainStats back = trained_stats_of(run, 3);
  EXPECT_EQ(back.steps, 60);
  EXPECT_EQ(back.samples_seen, 3840);
  EXPECT_EQ(back.learning_rate, 1e-4);
  EXPECT_EQ(back.loss, stats.loss);  // exactly: the record must equal an unkilled run's
  EXPECT_EQ(back.value, 0.25);
  EXPECT_TRUE(std::isnan(back.policy));
  EXPECT_EQ(back.score, 0.5);
  EXPECT_EQ(back.ownership, 0.75);
  EXPECT_EQ(back.policy_entropy, 1.5);

  const std::string written = read_file(run.train_summary(3).string());
  const auto refused = [&](const std::string& text, const std::string& why) {
    write_file_atomic(run.train_summary(3).string(), text);
    try {
      trained_stats_of(run, 3);
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(run.train_summary(3).string()), std::string::npos) << what;
      EXPECT_NE(what.find(why), std::string::npos) << what;
    }
  };
  refused(written.substr(0, written.size() / 2), "not valid JSON");
  refused("[1, 2]", "a record must be a JSON object");
  std::string other = written;
  other.replace(other.find("\"generation\":3"), 14, "\"generation\":4");
  refused(other, "the summary of generation 4, not 3");
  std::string text_loss = written;
  text_loss.replace(text_loss.find("\"loss\":"), 7, "\"loss\":\"x\",\"unused\":");
  refused(text_loss, "field 'loss' is not a number");
  refused(written + written, "a training summary is one line, not 2");
  refused("", "a training summary is one line, not 0");
  // The training lines end at another step, or at the same step with other
  // samples seen: the summary is another training's.
  write_file_atomic(run.train_metrics(3).string(), view::to_json_line(view::TrainLine{3, 59, 3840, 1e-4, 0.002}));
  refused(written, "ends at step 59 with 3840: the summary of another training");
  write_file_atomic(run.train_metrics(3).string(), view::to_json_line(view::TrainLine{3, 60, 3776, 1e-4, 0.002}));
  refused(written, "ends at step 60 with 3776: the summary of another training");

  std::filesystem::remove(run.train_summary(3));
  write_file_atomic(run.train_metrics(3).string(),
                    view::to_json_line(view::TrainLine{3, 59, 3776, 1e-4, 0.002}) +
                        view::to_json_line(view::TrainLine{3, 60, 3840, 1e-4, 0.001}));
  const train::TrainStats lines = trained_stats_of(run, 3);
  EXPECT_EQ(lines.steps, 60);
  EXPECT_EQ(lines.samples_seen, 3840);
  EXPECT_EQ(lines.loss, 0.001);
  std::filesystem::remove_all(run.root);
}

// The learner writes the summary before its candidate, so that no kill
// leaves a candidate without it: here its write fails (a folder where it
// goes), and the candidate must not be there. A summary a killed training
// left without its candidate is replaced by the next training's.
TEST(EvalPipeline, TheSummaryIsWrittenBeforeTheCandidateAndAStaleOneIsReplaced) {
  const RunDir run = small_eval_run("eval_summary_order");
  const RunConfig config = small_adam_config();
  const StageLog log = [](const std::string&) {};
  std::filesystem::create_directories(run.train_summary(1) / "in-the-way");
  try {
    eval_pipeline(config).learn(run, 1, "", log);
    ADD_FAILURE() << "the summary's write did not fail";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(run.train_summary(1).filename().string()), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::exists(run.train_metrics(1))) << "the training did not get as far as its summary";
  EXPECT_FALSE(std::filesystem::exists(run.model(1))) << "a candidate without its summary";
  std::filesystem::remove_all(run.train_summary(1));

  train::TrainStats stale;
  stale.steps = 999;
  stale.samples_seen = 1;
  stale.loss = 9;
  write_trained_stats(run, 1, stale);
  const train::TrainStats trained = eval_pipeline(config).learn(run, 1, "", log);
  ASSERT_TRUE(std::filesystem::exists(run.model(1)));
  const train::TrainStats back = trained_stats_of(run, 1);
  EXPECT_EQ(back.steps, trained.steps);
  EXPECT_EQ(back.samples_seen, trained.samples_seen);
  EXPECT_EQ(back.loss, trained.loss);
  std::filesystem::remove_all(run.root);
}

// The optimizer's state goes with the candidate it trained (issue 101, by
// reading the learners for the kill harness): the training saved its Adam
// moments as the run's optimizer.pt before the candidate was written, so a
// kill between the two left them there, and the next attempt trained the
// candidate again from the finished training's moments: another candidate
// than an unkilled run makes. Here the learner is stopped at that point by
// a folder where its training metrics go (their write fails right after
// the training saved its state, before the candidate), not by timing a
// kill; the next attempt must make the unkilled candidate.
TEST(EvalPipeline, ATrainingStoppedBeforeItsCandidateTrainsAgainFromTheRunsOptimizerState) {
  const RunDir run = small_eval_run("eval_optimizer_state");
  const RunConfig config = small_adam_config();
  const StageLog log = [](const std::string&) {};
  eval_pipeline(config).learn(run, 1, "", log);
  ASSERT_TRUE(std::filesystem::exists(run.optimizer()));
  EXPECT_FALSE(std::filesystem::exists(run.optimizer_in_training()));
  const std::string first_state = read_file(run.optimizer().string());
  eval_pipeline(config).learn(run, 2, "", log);  // from generation 1's weights and moments
  const std::string unkilled = read_file(run.model(2).string()), second_state = read_file(run.optimizer().string());
  EXPECT_NE(second_state, first_state);

  // Generation 2 again from the run as it was before its training, stopped
  // after the training saved its state.
  std::filesystem::remove(run.model(2));
  std::filesystem::remove(run.train_metrics(2));
  write_file_atomic(run.optimizer().string(), first_state);
  std::filesystem::create_directories(run.train_metrics(2) / "in-the-way");
  EXPECT_THROW(eval_pipeline(config).learn(run, 2, "", log), std::runtime_error);
  ASSERT_FALSE(std::filesystem::exists(run.model(2)));
  EXPECT_EQ(read_file(run.optimizer().string()), first_state) << "the stopped training's state became the run's";
  std::filesystem::remove_all(run.train_metrics(2));
  eval_pipeline(config).learn(run, 2, "", log);  // the next attempt
  EXPECT_EQ(read_file(run.model(2).string()), unkilled) << "trained again from the stopped training's moments";
  EXPECT_NE(read_file(run.optimizer().string()), first_state) << "the finished training's state is not the run's";
  EXPECT_FALSE(std::filesystem::exists(run.optimizer_in_training()));

  // Stopped after the candidate, before its state was the run's (built
  // directly): the resumed learner finds the candidate and makes the
  // state its training saved the run's.
  write_file_atomic(run.optimizer_in_training().string(), second_state);
  write_file_atomic(run.optimizer().string(), first_state);
  eval_pipeline(config).learn(run, 2, "", log);
  EXPECT_EQ(read_file(run.optimizer().string()), second_state);
  EXPECT_FALSE(std::filesystem::exists(run.optimizer_in_training()));
  EXPECT_EQ(read_file(run.model(2).string()), unkilled);
  std::filesystem::remove_all(run.root);
}

}  // namespace
}  // namespace mushroom::run
