#include "nn/nn_evaluator.h"


#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "agents/agent.h"
#include "agents/local_match.h"
#include "mushroom/board_gen.h"
#include "mushroom/playout_positions.h"
#include "nn/cpu_net.h"
#include "nn/model_file.h"
#include "nn/nn_agent.h"
#include "nn/plain_net.h"
#include "nn/policy_orderer.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::nn {
namespace {

struct Evaluated {
  std::vector<Move> moves;
  EvalResult result;
};

Evaluated evaluate_one(NnEvaluator& ev, const Position& p) {
  Evaluated out;
  out.moves.resize(MushroomGame::kMaxActions);
  out.moves.resize(MushroomGame::legal_actions(p, out.moves.data()));
  EvalRequest<MushroomGame> req{&p, out.moves.data(), int(out.moves.size())};
  ev.evaluate(Span(&req, 1), Span(&out.result, 1));
  return out;
}

std::shared_ptr<CpuNet> small_net(uint64_t seed) {
  return std::make_shared<CpuNet>(random_model(NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8}, seed));
}

TEST(NnEvaluator, PriorsAreADistributionAndTheCacheAnswersRepeats) {
  NnEvaluator ev(small_net(1));
  const auto positions = playout_positions(10, 3);
  for (const Position& p : positions) {
    const Evaluated e = evaluate_one(ev, p);
    ASSERT_EQ(e.result.priors.size(), e.moves.size());
    EXPECT_NEAR(std::accumulate(e.result.priors.begin(), e.result.priors.end(), 0.0), 1.0, 1e-4);
    EXPECT_GE(e.result.value, -1.0f);
    EXPECT_LE(e.result.value, 1.0f);
  }
  EXPECT_EQ(ev.net_positions(), 10u);
  EXPECT_EQ(ev.cache_hits(), 0u);
  const Evaluated again = evaluate_one(ev, positions[4]);
  EXPECT_EQ(ev.cache_hits(), 1u);
  EXPECT_EQ(ev.net_positions(), 10u);
  EXPECT_EQ(again.result.priors, evaluate_one(ev, positions[4]).result.priors);
}

TEST(NnEvaluator, BatchEqualsOneByOne) {
  NnEvaluator batched(small_net(2), NnEvaluatorConfig{.cache_entries = 0});
  NnEvaluator single(small_net(2), NnEvaluatorConfig{.cache_entries = 0});
  const auto positions = playout_positions(8, 6);
  std::vector<std::vector<Move>> moves(positions.size());
  std::vector<EvalRequest<MushroomGame>> reqs;
  for (size_t i = 0; i < positions.size(); ++i) {
    moves[i].resize(MushroomGame::kMaxActions);
    moves[i].resize(MushroomGame::legal_actions(positions[i], moves[i].data()));
  }
  for (size_t i = 0; i < positions.size(); ++i) reqs.push_back({&positions[i], moves[i].data(), int(moves[i].size())});
  std::vector<EvalResult> results(positions.size());
  batched.evaluate(reqs, results);
  EXPECT_EQ(batched.net_calls(), 1u);
  for (size_t i = 0; i < positions.size(); ++i) {
    const Evaluated e = evaluate_one(single, positions[i]);
    EXPECT_EQ(e.result.priors, results[i].priors);
    EXPECT_EQ(e.result.value, results[i].value);
  }
}

// With test-time averaging over the four symmetries, the evaluation of a
// transformed board is the transformed evaluation, for any weights. Without
// it a random net is not equivariant, which shows the check has teeth.
double worst_equivariance_error(SymmetryMode mode) {
  NnEvaluator ev(small_net(5), NnEvaluatorConfig{.cache_entries = 0, .symmetry = mode});
  double worst = 0;
  for (const Position& p : playout_positions(6, 12)) {
    const Evaluated base = evaluate_one(ev, p);
    for (Symmetry s : kAllSymmetries) {
      const Evaluated t = evaluate_one(ev, transform(s, p));
      worst = std::max(worst, double(std::abs(base.result.value - t.result.value)));
      for (size_t i = 0; i < base.moves.size(); ++i) {
        const Move image = transform(s, base.moves[i]);
        const auto it = std::find(t.moves.begin(), t.moves.end(), image);
        EXPECT_NE(it, t.moves.end());
        worst = std::max(worst, double(std::abs(base.result.priors[i] - t.result.priors[it - t.moves.begin()])));
      }
    }
  }
  return worst;
}

TEST(NnEvaluator, AveragingOverSymmetriesIsEquivariant) {
  EXPECT_LE(worst_equivariance_error(SymmetryMode::kAll), 1e-5);
  EXPECT_GT(worst_equivariance_error(SymmetryMode::kNone), 1e-4);
}

TEST(NnEvaluator, BadSymmetryModeIsNamed) {
  EXPECT_THROW(parse_symmetry_mode("some"), std::invalid_argument);
}

TEST(NnAgent, PlaysAWholeLegalGameFromAModelFile) {
  register_nn_agent();
  const std::string path = (test_scratch_dir() / "nn_agent.h5").string();
  save_model(random_model(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 4), path);
  AgentOptions options;
  options.values = {{"model", path}, {"sims", "24"}};
  auto nn = make_agent("nn", options);
  auto greedy = make_agent("greedy", AgentOptions{});
  EXPECT_EQ(nn->name(), "nn");
  const LocalGameResult r = play_local_game(*nn, *greedy, random_board(5));
  EXPECT_EQ(r.forfeit, "");
  EXPECT_TRUE(r.final.game_over());
  std::filesystem::remove(path);
}

TEST(NnAgent, UnknownOptionAndMissingModelAreErrors) {
  register_nn_agent();
  AgentOptions options;
  options.values = {{"model", "/nonexistent/model.h5"}};
  EXPECT_THROW(make_agent("nn", options), std::runtime_error);
  options.values = {{"modle", "x"}};
  EXPECT_THROW(make_agent("nn", options), std::invalid_argument);
}

// The policy orderer scores moves by the net's logits, asks the net once per
// position, and alphabeta-policy plays whole legal games with it.
TEST(PolicyOrderer, ScoresByTheNetsLogitsOncePerPosition) {
  const Model model = random_model(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 6);
  PolicyOrderer orderer(model);
  PlainNet net(model);
  for (const Position& p : playout_positions(5, 31)) {
    MoveList list;
    const int n = generate_moves(p, list);
    std::vector<float> scores(static_cast<size_t>(n));
    ASSERT_TRUE(orderer.score(p, list.begin(), n, scores.data()));
    NetEval e;
    net.evaluate(p, list.begin(), n, e);
    for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(scores[size_t(i)], e.logits[size_t(i)]);
    const int64_t calls = orderer.net_calls();
    ASSERT_TRUE(orderer.score(p, list.begin(), n, scores.data()));
    EXPECT_EQ(orderer.net_calls(), calls);
  }
  register_nn_agent();
  const std::string path = (test_scratch_dir() / "policy.h5").string();
  save_model(model, path);
  AgentOptions options;
  options.values = {{"policy", path}, {"plies", "2"}, {"depth", "3"}, {"solver", "0"}};
  auto player = make_agent("alphabeta-policy", options);
  auto greedy = make_agent("greedy", AgentOptions{});
  const LocalGameResult r = play_local_game(*player, *greedy, random_board(7));
  EXPECT_EQ(r.forfeit, "");
  EXPECT_TRUE(r.final.game_over());
  options.values = {{"policy", path}, {"plys", "2"}};
  EXPECT_THROW(make_agent("alphabeta-policy", options), std::invalid_argument);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace mushroom::nn
