// The learned evaluation's fit stage (run/fit_stage.h) and what plays with
// its fits: the judge's players and the ladder's candidate. The stage's
// resume after kill -9 and the export of a run's fit are in
// cli/fit_stage_cli_test.cpp.
#include "run/fit_stage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "agents/probcut_fitting.h"
#include "alphabeta/probcut.h"
#include "nnue/network.h"
#include "run/eval_pipeline.h"
#include "run/ladder_stage.h"
#include "run/pipeline.h"
#include "run/run_config.h"
#include "train/nnue/eval_test_util.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::run {
namespace {

namespace fs = std::filesystem;

const char* kFitSettings =
    "[run]\nmodel = \"eval\"\n[probcut]\nenabled = true\ngames = 2\nmax_depth = 3\nsample_rate = 0.5\nthreads = 1\n";

// The fit's own rules, whatever the settings table lets through, name the
// run's keys as the config spells them: the node limit is probcut.nodes.
TEST(FitStage, TheFitsOwnRulesNameTheRunsKeys) {
  ProbCutStageConfig config;
  config.nodes = 10;  // below the fit's 1000 (the table refuses it too, by its own name)
  try {
    probcut_fit_job(config, "eval.bin");
    ADD_FAILURE() << "a node limit of 10 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("probcut.nodes must be at least 1000"), std::string::npos) << e.what();
  }
  config = ProbCutStageConfig{};
  config.exact_max_left = 100;
  config.exact_shallow = config.max_depth + 1;
  try {
    probcut_fit_job(config, "eval.bin");
    ADD_FAILURE() << "exact_shallow above max_depth was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("probcut.exact_shallow = 10 must be in [1, probcut.max_depth = 9]"),
              std::string::npos)
        << e.what();
  }
}

// A fit made with another evaluation (a stale gen-0001.probcut beside a
// retrained gen-0001.eval) is refused by name, naming both hashes, before
// any fitting; the evaluation's own is accepted as made.
TEST(FitStage, AFitMadeForAnotherEvaluationIsRefusedBeforeAnyWork) {
  const ScratchFolder folder("mushroom-fit-stage-foreign");
  const RunDir run{folder.dir() / "run", ".eval"};
  run.prepare();
  const std::string candidate = run.model(1).string();
  const std::string ours = nnue::serialize_network(train::lively_model(7));
  const std::string theirs = nnue::serialize_network(train::lively_model(8));
  write_file_atomic(candidate, ours);
  ProbCutFit stale;
  stale.evaluation = probcut_evaluation_of_bytes(theirs);
  const std::string fit = (run.root / "models" / "gen-0001.probcut").string();
  EXPECT_EQ(probcut_fit_path(candidate).string(), fit);
  write_file_atomic(fit, format_probcut_fit(stale));
  const RunConfig config = parse_run_config(kFitSettings, "test.toml");
  std::vector<std::string> lines;
  try {
    fit_evaluation(config.probcut, candidate, [&](const std::string& line) { lines.push_back(line); });
    ADD_FAILURE() << "a fit made with another evaluation was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fit), std::string::npos) << what;
    EXPECT_NE(what.find(probcut_evaluation_of_bytes(ours)), std::string::npos) << what;
    EXPECT_NE(what.find(stale.evaluation), std::string::npos) << what;
  }
  EXPECT_TRUE(lines.empty()) << "it fitted before refusing: " << lines.front();
  EXPECT_EQ(read_file(fit), format_probcut_fit(stale));  // left as it was, for the user to look at

  // The fit beside an --init model is checked the same way before it is copied into the run.
  const std::string init = (folder.dir() / "start.bin").string();
  write_file_atomic(init, ours);
  write_file_atomic((folder.dir() / "start.probcut").string(), format_probcut_fit(stale));
  const std::string copy = run_init_model(run, init);
  EXPECT_EQ(copy, (run.root / "models" / "init.eval").string());
  EXPECT_THROW(adopt_init_fit(init, copy, [](const std::string&) {}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(probcut_fit_path(copy)));

  // Its own fit is taken as made: no work.
  ProbCutFit right;
  right.evaluation = probcut_evaluation_of_bytes(ours);
  write_file_atomic(fit, format_probcut_fit(right));
  EXPECT_EQ(fit_evaluation(config.probcut, candidate, [&](const std::string& line) { lines.push_back(line); }), fit);
  EXPECT_TRUE(lines.empty());
}

// The run's copy of its --init model: made once; a later start from
// another file is refused by name.
TEST(FitStage, TheRunKeepsItsOwnCopyOfItsInitModel) {
  const ScratchFolder folder("mushroom-fit-stage-init");
  const RunDir run{folder.dir() / "run", ".eval"};
  const std::string init = (folder.dir() / "start.bin").string();
  write_file_atomic(init, nnue::serialize_network(train::lively_model(7)));
  const std::string copy = run_init_model(run, init);
  EXPECT_EQ(read_file(copy), read_file(init));
  EXPECT_EQ(run_init_model(run, init), copy);  // a resume
  EXPECT_EQ(run_init_model(run, copy), copy);  // resumed with --init the copy itself
  EXPECT_EQ(run_init_model(run, ""), "");
  write_file_atomic(init, nnue::serialize_network(train::lively_model(8)));  // the file changed since
  try {
    run_init_model(run, init);
    ADD_FAILURE() << "another --init model was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not the model this run started from"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(copy), std::string::npos) << e.what();
  }
}

// With [probcut] enabled the judge's players (gate and evaluation) and the
// ladder's candidate search with their evaluation's fit; the hand
// evaluation has none; disabled, nobody has one.
TEST(FitStage, TheGateAndTheLadderPlayEachEvaluationWithItsFit) {
  const ScratchFolder folder("mushroom-fit-stage-players");
  const RunDir run{folder.dir() / "run", ".eval"};
  run.prepare();
  const std::string candidate = run.model(1).string(), best = (run.root / "models" / "init.eval").string();
  for (const std::string& model : {candidate, best}) {
    write_file_atomic(model, nnue::serialize_network(train::lively_model(7)));
    write_file_atomic(probcut_fit_path(model).string(), "evaluation hand\n");
  }
  const RunConfig on = parse_run_config(kFitSettings, "test.toml");
  for (const std::string& model : {candidate, best}) {
    const auto options = judge_player_options(on, model);
    ASSERT_EQ(options.count("probcut"), 1u) << model;
    EXPECT_EQ(options.at("probcut"), probcut_fit_path(model).string());
    EXPECT_EQ(options.at("eval"), model);
  }
  EXPECT_EQ(judge_player_options(on, "").count("probcut"), 0u);  // the hand evaluation
  EXPECT_NE(ladder_candidate_program(run, 1, true).find(",probcut=" + fs::absolute(probcut_fit_path(candidate)).string()),
            std::string::npos)
      << ladder_candidate_program(run, 1, true);

  const RunConfig off = parse_run_config("[run]\nmodel = \"eval\"\n", "test.toml");
  EXPECT_EQ(judge_player_options(off, candidate).count("probcut"), 0u);
  EXPECT_EQ(ladder_candidate_program(run, 1, false).find("probcut"), std::string::npos);

  // A fit the stage did not make is named, not played without.
  fs::remove(probcut_fit_path(candidate));
  try {
    judge_player_options(on, candidate);
    ADD_FAILURE() << "a missing fit was not named";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(probcut_fit_path(candidate).string()), std::string::npos) << e.what();
  }
}

// With [evalplay] label_probcut, self-play by the best evaluation so far
// labels with its fit from the run. The --init model's is made before its
// self-play (fit_selfplay_player: the gate would fit it only after
// generation 1's games); the pipeline's self-play refuses, naming the
// file, a model without a fit rather than labelling without it, and a fit
// made for another evaluation. The hand evaluation has none, said in the
// log; with label_probcut off nothing is fitted.
TEST(FitStage, SelfPlayLabelsWithTheBestEvaluationsFit) {
  const ScratchFolder folder("mushroom-fit-stage-selfplay");
  const RunDir run{folder.dir() / "run", ".eval"};
  run.prepare();
  const std::string init = (run.root / "models" / "init.eval").string();
  const std::string ours = nnue::serialize_network(train::lively_model(7));
  write_file_atomic(init, ours);
  const RunConfig config = parse_run_config(std::string(kFitSettings) +
                                                "[evalplay]\nlabel_search = \"playing\"\nlabel_probcut = true\n"
                                                "label_depth = 2\n[selfplay]\nthreads = 1\n",
                                            "test.toml");
  const Pipeline pipeline = eval_pipeline(config);
  int64_t next_id = 8400;
  auto play = [&](const std::string& model) {
    selfplay::SelfplayJob job;
    job.config = config.selfplay;
    job.out_dir = (folder.dir() / "data").string();
    job.games = 1;
    job.first_game_id = next_id++;
    return pipeline.selfplay(job, model);
  };
  const std::string fit = probcut_fit_path(init).string();
  try {
    play(init);
    ADD_FAILURE() << "self-play labelled without the fit label_probcut asks for";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(init + " has no Multi-ProbCut fit (" + fit + ")"), std::string::npos)
        << e.what();
  }

  std::vector<std::string> lines;
  const auto log = [&](const std::string& line) { lines.push_back(line); };
  fit_selfplay_player(config.probcut, false, init, log);  // label_probcut off: nothing
  EXPECT_FALSE(fs::exists(fit));
  fit_selfplay_player(config.probcut, true, init, log);
  ASSERT_TRUE(fs::exists(fit)) << "the --init model's fit was not made before its self-play";
  EXPECT_EQ(read_probcut_fit(fit).evaluation, probcut_evaluation_of_bytes(ours));
  EXPECT_EQ(play(init).games_done, 1);
  lines.clear();
  fit_selfplay_player(config.probcut, true, "", log);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("the hand evaluation labels without ProbCut"), std::string::npos) << lines[0];
  EXPECT_EQ(play("").games_done, 1);

  // A candidate beside a fit made for another evaluation (a stale one).
  const std::string candidate = run.model(1).string();
  write_file_atomic(candidate, nnue::serialize_network(train::lively_model(8)));
  write_file_atomic(probcut_fit_path(candidate).string(), read_file(fit));
  try {
    play(candidate);
    ADD_FAILURE() << "self-play labelled with a fit made for another evaluation";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(probcut_fit_path(candidate).string() + " was made with evaluation " +
                                         probcut_evaluation_of_bytes(ours)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mushroom::run
