#include "agents/probcut_fitting.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "agents/agent.h"
#include "mushroom/playout_positions.h"
#include "nnue/network.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

ProbCutFitJob small_job() {
  ProbCutFitJob job;
  job.games = 3;
  job.threads = 1;
  job.play_depth = 1;
  job.sample_rate = 1.0;
  job.max_depth = 4;
  job.node_limit = 200'000;
  job.tt_bits = 16;
  job.pairs = {{3, 1}, {4, 2}};
  job.min_samples = 3;
  return job;
}

// A small fit: every sampled position has its values by depth, the fit
// has pairs only where they were asked for, and it is the same on any
// number of threads.
TEST(ProbCutFitting, SamplesAndFitAreTheSameOnAnyNumberOfThreads) {
  ProbCutFitJob job = small_job();
  int progress_lines = 0;
  const ProbCutFitResult one = run_probcut_fit(job, [&](const std::string&) { ++progress_lines; });
  EXPECT_EQ(progress_lines, job.games);
  ASSERT_GE(one.samples.size(), 20u);
  for (const ProbCutSample& s : one.samples) {
    EXPECT_GE(s.values.size(), 1u);
    EXPECT_LE(s.values.size(), 4u);
    EXPECT_GE(s.mushrooms_left, 0);
    EXPECT_LE(s.mushrooms_left, 170);
  }
  EXPECT_EQ(one.fit.evaluation, "hand");
  ASSERT_FALSE(one.fit.empty());
  for (const auto& [band, p] : one.fit.entries()) {
    EXPECT_TRUE((p.depth == 3 && p.shallow == 1) || (p.depth == 4 && p.shallow == 2)) << p.depth << ":" << p.shallow;
    EXPECT_GE(p.samples, job.min_samples);
    EXPECT_GT(p.spread, 0);
  }
  job.threads = 2;
  const ProbCutFitResult two = run_probcut_fit(job);
  ASSERT_EQ(two.samples.size(), one.samples.size());
  for (size_t i = 0; i < one.samples.size(); ++i) {
    EXPECT_EQ(two.samples[i].ply, one.samples[i].ply);
    EXPECT_EQ(two.samples[i].values, one.samples[i].values);
  }
  EXPECT_EQ(format_probcut_fit(two.fit), format_probcut_fit(one.fit));
  const std::string csv = probcut_samples_csv(one.samples, job.max_depth);
  EXPECT_EQ(split_lines(csv).size(), one.samples.size() + 1);
  EXPECT_EQ(split_lines(csv)[0], "game,ply,mushrooms_left,exact,v1,v2,v3,v4");
}

// With --exact-max-left the late positions are solved, and the fit gains
// `exact` pairs (the endgame solver's selective mode).
TEST(ProbCutFitting, LatePositionsAreSolvedForTheSelectiveEndgame) {
  ProbCutFitJob job = small_job();
  job.games = 4;
  job.exact_max_left = 92;
  job.exact_nodes = 100'000;
  job.exact_shallow = 2;
  const ProbCutFitResult r = run_probcut_fit(job);
  int solved = 0;
  for (const ProbCutSample& s : r.samples) {
    if (s.exact) ++solved;
    if (s.mushrooms_left > job.exact_max_left) {
      EXPECT_FALSE(s.exact.has_value());
    }
  }
  EXPECT_GE(solved, 5);
  bool has_exact = false;
  for (const auto& [band, p] : r.fit.entries()) {
    if (p.depth != ProbCutFit::kExactDepth) continue;
    has_exact = true;
    EXPECT_EQ(p.shallow, 2);
    EXPECT_LE(ProbCutFit::band_first(band), job.exact_max_left);
  }
  EXPECT_TRUE(has_exact);
  const ProbCutFit back = parse_probcut_fit(format_probcut_fit(r.fit), "fit.txt");
  EXPECT_EQ(format_probcut_fit(back), format_probcut_fit(r.fit));
  job.exact_shallow = 5;
  EXPECT_THROW(run_probcut_fit(job), std::invalid_argument) << "deeper than max depth";
}

// A learned evaluation's fit names the file's hash.
TEST(ProbCutFitting, AFitNamesTheEvaluationItWasMadeWith) {
  ScratchFolder scratch("probcut_fitting_test");
  const std::string eval = (scratch.dir() / "eval.bin").string();
  const std::string bytes = nnue::serialize_network(nnue::Network::hand_equivalent({16, 4, 4}));
  write_file_atomic(eval, bytes);
  ProbCutFitJob job = small_job();
  job.games = 1;
  job.eval = eval;
  const ProbCutFitResult r = run_probcut_fit(job);
  EXPECT_EQ(r.fit.evaluation, probcut_evaluation_name(eval));
  EXPECT_NE(r.fit.evaluation, "hand");
  EXPECT_EQ(r.fit.evaluation.size(), 16u);
}

// Settings out of range and malformed pairs are refused by name.
TEST(ProbCutFitting, BadSettingsAreRefusedByName) {
  const std::vector<std::pair<std::function<void(ProbCutFitJob&)>, std::string>> bad = {
      {[](ProbCutFitJob& j) { j.games = 0; }, "games"},
      {[](ProbCutFitJob& j) { j.sample_rate = 0; }, "sample rate"},
      {[](ProbCutFitJob& j) { j.max_depth = 40; }, "max depth"},
      {[](ProbCutFitJob& j) { j.pairs = {{6, 3}}; }, "pair 6:3"},
      {[](ProbCutFitJob& j) { j.pairs = {{6, 6}}; }, "pair 6:6"},
      {[](ProbCutFitJob& j) { j.pairs.clear(); }, "no depth pairs"},
      {[](ProbCutFitJob& j) { j.min_samples = 1; }, "min samples"},
  };
  for (const auto& [change, expected] : bad) {
    ProbCutFitJob job = small_job();
    change(job);
    try {
      run_probcut_fit(job);
      ADD_FAILURE() << expected << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parse_probcut_pairs("8:4, 6:2"), (std::vector<std::pair<int, int>>{{8, 4}, {6, 2}}));
  for (const char* text : {"8-4", "8:", ":4", "8:4,", "x:y"}) EXPECT_THROW(parse_probcut_pairs(text), std::invalid_argument) << text;
}

// The alphabeta agent reads a fit, refuses one made with another
// evaluation or a malformed one by name, and refuses settings out of range.
TEST(ProbCutFitting, TheAlphabetaAgentTakesAFitMadeWithItsEvaluation) {
  ScratchFolder scratch("probcut_agent_test");
  ProbCutFit fit;
  for (int band = 0; band < ProbCutFit::kBands; ++band) {
    ProbCutPair p;
    p.depth = 4;
    p.shallow = 2;
    p.spread = 30;
    p.samples = 50;
    fit.set(band, p);
  }
  const std::string hand_fit = (scratch.dir() / "hand.txt").string();
  write_file_atomic(hand_fit, format_probcut_fit(fit));
  AgentOptions opts;
  opts.values = {{"probcut", hand_fit}, {"depth", "5"}, {"solver", "0"}, {"probcut_depth", "3"}};
  for (const Position& pos : playout_positions(3, 21)) {
    auto agent = make_agent("alphabeta", opts);
    agent->new_game(pos, pos.to_move());
    const Move m = agent->choose_move(pos, Clock{});
    EXPECT_TRUE(m.is_pass() || pos.is_legal(m));
  }
  const std::string eval = (scratch.dir() / "eval.bin").string();
  write_file_atomic(eval, nnue::serialize_network(nnue::Network::hand_equivalent({16, 4, 4})));
  AgentOptions other = opts;
  other.values["eval"] = eval;
  try {
    make_agent("alphabeta", other);
    ADD_FAILURE() << "a fit of the hand evaluation was taken for a learned one";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("made with evaluation hand"), std::string::npos) << e.what();
  }
  const std::string broken = (scratch.dir() / "broken.txt").string();
  write_file_atomic(broken, "evaluation hand\nspread 3\n");
  AgentOptions malformed = opts;
  malformed.values["probcut"] = broken;
  EXPECT_THROW(make_agent("alphabeta", malformed), std::runtime_error);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"probcut_sigmas", "9"}, {"probcut_sigmas", "-1"}, {"probcut_depth", "1"}, {"probcut_depth", "33"}}) {
    AgentOptions out_of_range = opts;
    out_of_range.values[key] = value;
    try {
      make_agent("alphabeta", out_of_range);
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace mushroom
