// BLOCKGAME in the training stage: batches, grading against the solver,
// and paired matches.
#include "run/blockgame_grade.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "blockgame/blockgame_game.h"
#include "nn/features.h"
#include "nn/game_net_evaluator.h"
#include "nn/model_file.h"
#include "train/game_batch.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::run {
namespace {

using blockgame::BlockGame;

namespace fs = std::filesystem;

nn::Model small_blockgame_model(uint64_t seed) {
  nn::NetConfig c;
  c.blocks = 1;
  c.channels = 8;
  c.value_hidden = 8;
  c.game = nn::GameKind::kBlockgame;
  return nn::random_model(c, seed);
}

blockgame::Solver& solver() {
  static blockgame::Solver s;
  return s;
}

TEST(BlockgameTraining, BatchesTransformTheTargetWithTheBoard) {
  const uint32_t filled = blockgame::placements()[3] | blockgame::placements()[70];
  selfplay::Sample s = selfplay::sample_of_state<BlockGame>(selfplay::sample_schema("blockgame"), blockgame::State{filled, 0, 0});
  const int target_placement = 99;  // a vertical domino clear of both
  ASSERT_EQ(blockgame::placements()[target_placement] & filled, 0u);
  s.policy = {{blockgame::slot_of_placement(target_placement), 1.0f}};
  s.outcome = -1;
  Rng rng(3);
  std::set<int> seen;
  for (int trial = 0; trial < 40; ++trial) {
    const train::Batch b = train::make_game_batch<BlockGame>(selfplay::sample_schema("blockgame"), {s}, {0}, rng, BlockGame::kFeatureVersion);
    EXPECT_EQ(b.planes.sizes(), (std::vector<int64_t>{1, 10, 5, 5}));
    EXPECT_EQ(b.wdl_target[0].item<int64_t>(), 2);  // a loss
    int used = -1;
    for (int sym = 0; sym < 8; ++sym) {
      std::vector<float> planes(10 * 25);
      BlockGame::encode(blockgame::State{blockgame::transform(filled, sym), 0, 0}, planes.data(), 2);
      if (torch::equal(b.planes[0].flatten(), torch::from_blob(planes.data(), {int64_t(planes.size())}))) used = sym;
    }
    ASSERT_GE(used, 0);
    seen.insert(used);
    const int64_t k = b.policy_target[0].argmax().item<int64_t>();
    EXPECT_FLOAT_EQ(b.policy_target[0][k].item<float>(), 1.0f);
    const int placement = blockgame::placement_of_slot(int(b.moves[0][k].item<int64_t>()));
    EXPECT_EQ(blockgame::placements()[size_t(placement)],
              blockgame::transform(blockgame::placements()[target_placement], used));
    // Every listed move is legal in the transformed position.
    const uint32_t image = blockgame::transform(filled, used);
    for (int64_t j = 0; j < b.moves.size(1); ++j) {
      if (!b.move_mask[0][j].item<bool>()) continue;
      const int legal = blockgame::placement_of_slot(int(b.moves[0][j].item<int64_t>()));
      EXPECT_EQ(blockgame::placements()[size_t(legal)] & image, 0u);
    }
  }
  EXPECT_GT(seen.size(), 4u);
}

TEST(BlockgameTraining, GradingPositionsAreReachableNonTerminalAndSeeded) {
  const auto a = blockgame_grading_positions(300, 17, solver());
  const auto b = blockgame_grading_positions(300, 17, solver());
  const auto c = blockgame_grading_positions(300, 18, solver());
  ASSERT_EQ(a.size(), 300u);
  int differ = 0, won = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].filled, b[i].filled);
    differ += a[i].filled != c[i].filled;
    EXPECT_NE(a[i].filled, 0u) << "the empty board is excluded";
    EXPECT_GT(a[i].legal, 0) << "finished positions are excluded";
    EXPECT_EQ(a[i].won, solver().wins(a[i].filled));
    EXPECT_EQ(a[i].winning, a[i].won ? int(solver().winning_moves(a[i].filled).size()) : 0);
    EXPECT_LE(a[i].winning, a[i].legal);
    won += a[i].won;
    // Reachable: filled cells are a union of disjoint placements, which
    // holds when the count of filled cells is 2a + 3b for some split; every
    // count >= 2 is, so check the weaker popcount bound instead.
    EXPECT_GE(__builtin_popcount(a[i].filled), 2);
    // ply placements of 2 or 3 cells each.
    EXPECT_GE(a[i].ply, 1);
    EXPECT_GE(__builtin_popcount(a[i].filled), 2 * a[i].ply);
    EXPECT_LE(__builtin_popcount(a[i].filled), 3 * a[i].ply);
  }
  EXPECT_GT(differ, 200);
  EXPECT_GT(won, 30);
  EXPECT_LT(won, 270);
}

TEST(BlockgameTraining, RandomPolicyAccuracyIsTheMeanWinningShare) {
  std::vector<GradePosition> ps = {{1, true, 10, 5}, {2, false, 8, 0}, {3, true, 4, 1}};
  const GradeReport r = grade_random_policy(ps);
  EXPECT_EQ(r.positions, 3);
  EXPECT_EQ(r.won, 2);
  EXPECT_DOUBLE_EQ(r.random_accuracy, (0.5 + 0.25) / 2);
}

// The grader's policy line agrees with a check done by hand through the
// evaluator, and MCTS on an untrained net beats its raw policy (the search
// proves short wins on its own).
TEST(BlockgameTraining, GradingMatchesAHandCheck) {
  const nn::Model model = small_blockgame_model(4);
  const auto positions = blockgame_grading_positions(200, 5, solver());
  const GradeReport r = grade_blockgame(model, positions, 48, solver());
  EXPECT_EQ(r.positions, 200);
  EXPECT_EQ(r.sims, 48);
  const auto evaluator_owner = nn::make_game_net_evaluator<BlockGame>(model, nn::GameKind::kBlockgame, "cpu");
  Evaluator<BlockGame>& evaluator = *evaluator_owner;
  int right = 0, value_right = 0;
  for (const GradePosition& p : positions) {
    blockgame::State s{p.filled, 0, 0};
    uint8_t legal[blockgame::kPlacements];
    const int n = blockgame::legal_placements(p.filled, legal);
    EvalRequest<blockgame::BlockGame> request{&s, legal, n};
    EvalResult result;
    evaluator.evaluate(Span<const EvalRequest<blockgame::BlockGame>>(&request, 1), Span<EvalResult>(&result, 1));
    value_right += (result.value > 0) == p.won;
    if (!p.won) continue;
    const size_t top = size_t(std::max_element(result.priors.begin(), result.priors.end()) - result.priors.begin());
    right += !solver().wins(p.filled | blockgame::placements()[legal[top]]);
  }
  EXPECT_NEAR(r.policy_accuracy, double(right) / r.won, 1e-9);
  EXPECT_NEAR(r.value_accuracy, double(value_right) / r.positions, 1e-9);
  EXPECT_GT(r.mcts_accuracy, r.random_accuracy);
  EXPECT_NE(format_grade_report(r).find("mcts@48"), std::string::npos);
  // The by-ply table adds up to the totals.
  GradeReport::PlyCounts sum;
  for (const GradeReport::PlyCounts& c : r.by_ply) {
    sum.positions += c.positions, sum.won += c.won, sum.policy_right += c.policy_right;
    sum.mcts_right += c.mcts_right, sum.value_right += c.value_right;
  }
  EXPECT_EQ(sum.positions, r.positions);
  EXPECT_EQ(sum.won, r.won);
  EXPECT_EQ(sum.policy_right, right);
  EXPECT_EQ(sum.value_right, value_right);
  EXPECT_NEAR(double(sum.mcts_right) / r.won, r.mcts_accuracy, 1e-9);
  EXPECT_EQ(r.by_ply[0].positions, 0) << "the empty board is never graded";
  EXPECT_NE(format_grade_report(r).find("by ply:"), std::string::npos);
}

// The grader searches with the settings it is given: a noise-free Gumbel
// root over one candidate can only play the raw policy's top move.
TEST(BlockgameTraining, GradingUsesTheGivenSearch) {
  const nn::Model model = small_blockgame_model(4);
  const auto positions = blockgame_grading_positions(150, 6, solver());
  MctsConfig one_candidate = blockgame_grading_search();
  one_candidate.gumbel = true;
  one_candidate.gumbel_k = 1;
  one_candidate.gumbel_noise = false;
  const GradeReport narrow = grade_blockgame(model, positions, 32, solver(), "cpu", one_candidate);
  EXPECT_DOUBLE_EQ(narrow.mcts_accuracy, narrow.policy_accuracy);
  const GradeReport puct = grade_blockgame(model, positions, 32, solver());
  EXPECT_GT(puct.mcts_accuracy, narrow.mcts_accuracy);  // the full search finds wins the prior misses
}

TEST(BlockgameTraining, ModelFilesKeepTheGameAndOtherRuntimesRefuseIt) {
  const fs::path path = test_scratch_dir() / "mushroom_bg_model.h5";
  const nn::Model model = small_blockgame_model(2);
  nn::save_model(model, path.string());
  const nn::Model back = nn::load_model(path.string());
  fs::remove(path);
  EXPECT_EQ(back.config.game, nn::GameKind::kBlockgame);
  EXPECT_TRUE(back.config == model.config);
  EXPECT_EQ(nn::describe(back.config), "blockgame 1x8 (policy 32, value 8)");
  try {
    nn::require_game(back, nn::GameKind::kMushroom, "the Eigen CPU inference");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("runs mushroom nets; this model is a blockgame"), std::string::npos);
  }
}

TEST(BlockgameTraining, TrainerRefusesAWindowOfTheOtherGame) {
  train::TrainConfig config;
  config.batch_size = 4;
  train::Trainer trainer(config, small_blockgame_model(1), "");
  train::TrainingWindow mushroom_window;
  mushroom_window.samples.resize(3);
  EXPECT_THROW(trainer.train(mushroom_window, 1, 1, nullptr, 1), std::runtime_error);
  train::TrainingWindow window;
  window.game = nn::GameKind::kBlockgame;
  selfplay::Sample s = selfplay::sample_of_state<BlockGame>(selfplay::sample_schema("blockgame"), blockgame::State{});
  s.policy = {{blockgame::slot_of_placement(0), 1.0f}};
  s.outcome = 1;
  window.samples = {s, s};
  const train::TrainStats stats = trainer.train(window, 3, 1, nullptr, 1);
  EXPECT_EQ(stats.steps, 3);
  EXPECT_TRUE(std::isfinite(stats.loss));
}

TEST(BlockgameTraining, PairedMatchesCountEveryGame) {
  const MatchResult r = play_blockgame_match("", "", 3, 9, 8);
  EXPECT_EQ(r.games, 6);
  EXPECT_EQ(r.wins + r.losses, 6);
  EXPECT_EQ(r.draws, 0);
}

// The committed generation 78 of runs/blockgame4 predates the legal-placement
// planes (layout 1): it still loads, gets 3-plane batches, and grades as it
// did (raw policy 0.934 on 2,000 tuning-seed positions).
TEST(BlockgameTraining, LayoutOneNetStillGrades) {
  const nn::Model old = nn::load_model("bench/blockgame4-gen-0078.h5");
  ASSERT_EQ(nn::feature_version_of(old.config), 1);
  selfplay::Sample s = selfplay::sample_of_state<BlockGame>(selfplay::sample_schema("blockgame"), blockgame::State{});
  s.outcome = 1;
  Rng rng(5);
  EXPECT_EQ(train::make_game_batch<BlockGame>(selfplay::sample_schema("blockgame"), {s}, {0}, rng, 1).planes.sizes(), (std::vector<int64_t>{1, 3, 5, 5}));
  const GradeReport r = grade_blockgame(old, blockgame_grading_positions(300, 777, solver()), 0, solver());
  EXPECT_GE(r.policy_accuracy, 0.88) << format_grade_report(r);
  EXPECT_GE(r.value_accuracy, 0.95) << format_grade_report(r);
}

}  // namespace
}  // namespace mushroom::run
