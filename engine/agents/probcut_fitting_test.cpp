#include "agents/probcut_fitting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "agents/agent.h"
#include "mushroom/playout_positions.h"
#include "mushroom/static_evaluator.h"
#include "nnue/network.h"
#include "util/rng.h"
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

// fit_from_samples regresses each pair's deep value on its shallow one, by
// band: synthetic samples drawn from known lines with known noise give
// them back, the `exact` pairs in the search's units (the margin in cells
// times 16) with the rounding to whole cells in their spread. Each depth
// has its own line, so a depth read one off, or shallow and deep swapped,
// gives another slope; a band with too few samples gets no pair.
TEST(ProbCutFitting, TheFitRecoversTheLinesTheSamplesWereDrawnFrom) {
  Rng rng(11);
  const auto noise = [&](double sigma) {  // 12 uniforms less 6: mean 0, variance 1
    double n = -6;
    for (int k = 0; k < 12; ++k) n += rng.uniform_double();
    return sigma * n;
  };
  struct Line {
    double slope, offset, spread;
  };
  // By band (60-79, 100-119): depth 2 on depth 1 (not fitted), 3 on 1, 4 on 2, and the exact margin on 2.
  const Line lines[2][4] = {{{1.1, 20, 10}, {0.8, -30, 25}, {0.9, 12, 30}, {0.7, 40, 50}},
                            {{1.3, -10, 15}, {1.2, 50, 35}, {1.05, -8, 20}, {1.15, -25, 60}}};
  const int lefts[2] = {65, 110};
  std::vector<ProbCutSample> samples;
  for (int band = 0; band < 2; ++band) {
    const Line* l = lines[band];
    for (int i = 0; i < 6000; ++i) {
      ProbCutSample s;
      s.mushrooms_left = lefts[band];
      const double v1 = std::round(rng.uniform_double() * 800 - 400);
      const double v2 = std::round(l[0].slope * v1 + l[0].offset + noise(l[0].spread));
      const double v3 = std::round(l[1].slope * v1 + l[1].offset + noise(l[1].spread));
      const double v4 = std::round(l[2].slope * v2 + l[2].offset + noise(l[2].spread));
      s.values = {int(v1), int(v2), int(v3), int(v4)};
      s.exact = int(std::round((l[3].slope * v2 + l[3].offset + noise(l[3].spread)) / kEvalScale));
      samples.push_back(s);
    }
  }
  for (int i = 0; i < 10; ++i) {  // band 0-19: too few
    ProbCutSample s;
    s.mushrooms_left = 10;
    s.values = {i, 2 * i, 3 * i + (i % 3), 4 * i - (i % 2)};
    s.exact = i;
    samples.push_back(s);
  }
  const ProbCutFit fit = fit_from_samples(samples, {{3, 1}, {4, 2}}, 30, "0123456789abcdef", 2);
  EXPECT_EQ(fit.evaluation, "0123456789abcdef");
  EXPECT_EQ(fit.entries().size(), 6u);  // two pairs and the exact one, in two bands
  EXPECT_EQ(fit.at(10, 3), nullptr);
  EXPECT_EQ(fit.exact_at(10), nullptr);
  // The rounding of a value to whole units adds variance 1/12 of its unit squared.
  const auto spread_with_rounding = [](double sigma, double unit) { return std::sqrt(sigma * sigma + unit * unit / 12); };
  for (int band = 0; band < 2; ++band) {
    const Line* l = lines[band];
    const struct {
      const ProbCutPair* pair;
      int shallow;
      Line expected;
    } checks[] = {{fit.at(lefts[band], 3), 1, {l[1].slope, l[1].offset, spread_with_rounding(l[1].spread, 1)}},
                  {fit.at(lefts[band], 4), 2, {l[2].slope, l[2].offset, spread_with_rounding(l[2].spread, 1)}},
                  {fit.exact_at(lefts[band]), 2, {l[3].slope, l[3].offset, spread_with_rounding(l[3].spread, kEvalScale)}}};
    for (const auto& c : checks) {
      ASSERT_NE(c.pair, nullptr) << "band " << band;
      SCOPED_TRACE("band " + std::to_string(band) + ", depth " + std::to_string(c.pair->depth));
      EXPECT_EQ(c.pair->shallow, c.shallow);
      EXPECT_EQ(c.pair->samples, 6000);
      EXPECT_NEAR(c.pair->slope, c.expected.slope, 0.02);
      EXPECT_NEAR(c.pair->offset, c.expected.offset, 3.0);
      EXPECT_NEAR(c.pair->spread, c.expected.spread, 0.05 * c.expected.spread);
      EXPECT_GT(c.pair->correlation, 0.9);
    }
  }
}

// The evaluation plays and measures the positions: a network that
// evaluates otherwise than the hand evaluation (random weights) gives
// other values and another fit; one that evaluates as it does, the same.
TEST(ProbCutFitting, AnotherEvaluationGivesAnotherFit) {
  ScratchFolder scratch("probcut_fitting_eval_test");
  nnue::Network random = nnue::Network::hand_equivalent({16, 4, 4});
  Rng rng(3);
  for (auto& t : random.tensors())
    for (size_t i = 0; i < t.size; ++i) t.data[i] = float(0.05 * (2 * rng.uniform_double() - 1));
  // Small weights alone round away in 1/16 cells: the best gain counts
  // three times what the hand evaluation gives it.
  random.skip_margin = 1;
  random.skip_gain = 1.5f;
  const std::string random_eval = (scratch.dir() / "random.bin").string();
  write_file_atomic(random_eval, nnue::serialize_network(random));
  const std::string same_eval = (scratch.dir() / "same.bin").string();
  write_file_atomic(same_eval, nnue::serialize_network(nnue::Network::hand_equivalent({16, 4, 4})));
  ProbCutFitJob job = small_job();
  job.games = 1;
  const ProbCutFitResult hand = run_probcut_fit(job);
  job.eval = same_eval;
  const ProbCutFitResult same = run_probcut_fit(job);
  job.eval = random_eval;
  const ProbCutFitResult other = run_probcut_fit(job);
  const auto values = [](const ProbCutFitResult& r) {
    std::vector<std::vector<int>> v;
    for (const ProbCutSample& s : r.samples) v.push_back(s.values);
    return v;
  };
  const auto pairs_text = [](ProbCutFit fit) {
    fit.evaluation = "hand";
    return format_probcut_fit(fit);
  };
  EXPECT_EQ(values(same), values(hand));
  EXPECT_NE(values(other), values(hand));
  EXPECT_NE(pairs_text(other.fit), pairs_text(hand.fit));
}

// Settings out of range and malformed pairs are refused by name.
TEST(ProbCutFitting, BadSettingsAreRefusedByName) {
  const std::vector<std::pair<std::function<void(ProbCutFitJob&)>, std::string>> bad = {
      {[](ProbCutFitJob& j) { j.games = 0; }, "--games must be"},
      {[](ProbCutFitJob& j) { j.sample_rate = 0; }, "--sample-rate must be"},
      {[](ProbCutFitJob& j) { j.max_depth = 40; }, "--max-depth must be"},
      {[](ProbCutFitJob& j) { j.node_limit = 10; }, "--nodes must be"},
      {[](ProbCutFitJob& j) { j.pairs = {{6, 3}}; }, "pair 6:3"},
      {[](ProbCutFitJob& j) { j.pairs = {{6, 6}}; }, "pair 6:6"},
      {[](ProbCutFitJob& j) { j.pairs.clear(); }, "--pairs names no depth pair"},
      {[](ProbCutFitJob& j) { j.min_samples = 1; }, "--min-samples must be"},
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
  // One spelling of the node limit for the command's flags and the run's keys.
  EXPECT_EQ(probcut_fit_setting("node_limit"), "nodes");
  EXPECT_EQ(probcut_fit_setting("exact_shallow"), "exact_shallow");
  EXPECT_EQ(probcut_fit_flag("exact_shallow"), "--exact-shallow");
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
