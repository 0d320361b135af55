#include "nn/net_prior_evaluator.h"

#include <gtest/gtest.h>

#include "mushroom/playout_positions.h"
#include "nn/cpu_net.h"
#include "nn/reference_net.h"

namespace mushroom::nn {
namespace {

struct Batch {
  std::vector<Position> positions;
  std::vector<std::vector<Move>> moves;
  std::vector<EvalRequest<MushroomGame>> requests;
  std::vector<EvalResult> results;
};

Batch make_batch(int count, uint64_t seed) {
  Batch b;
  b.positions = playout_positions(count, seed);
  b.moves.resize(b.positions.size());
  for (size_t i = 0; i < b.positions.size(); ++i) {
    b.moves[i].resize(MushroomGame::kMaxActions);
    b.moves[i].resize(MushroomGame::legal_actions(b.positions[i], b.moves[i].data()));
  }
  for (size_t i = 0; i < b.positions.size(); ++i)
    b.requests.push_back({&b.positions[i], b.moves[i].data(), int(b.moves[i].size())});
  b.results.resize(b.positions.size());
  return b;
}

void evaluate(Evaluator<MushroomGame>& ev, Batch& b, size_t from, size_t count) {
  ev.evaluate(Span<const EvalRequest<MushroomGame>>(b.requests.data() + from, count),
              Span<EvalResult>(b.results.data() + from, count));
}

TEST(NetPriorEvaluator, NetPriorsForTheFirstLeavesOfEachSearchMaterialValuesForAll) {
  const Model model = random_model(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 8}, 5);
  auto net = std::make_shared<NnEvaluator>(std::make_shared<CpuNet>(model), NnEvaluatorConfig{.cache_entries = 0});
  NetPriorEvaluator hybrid(net, 5);
  Batch got = make_batch(8, 12), from_net = make_batch(8, 12), from_material = make_batch(8, 12);
  NnEvaluator plain_net(std::make_shared<CpuNet>(model), NnEvaluatorConfig{.cache_entries = 0});
  MaterialEvaluator material;
  evaluate(plain_net, from_net, 0, 8);
  evaluate(material, from_material, 0, 8);

  // Two calls in one search: 3 leaves, then 5, of which 2 still get net priors.
  hybrid.begin_search();
  evaluate(hybrid, got, 0, 3);
  evaluate(hybrid, got, 3, 5);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(got.results[i].value, from_material.results[i].value) << i;
    EXPECT_EQ(got.results[i].margin, from_material.results[i].margin) << i;
    const auto& want = i < 5 ? from_net.results[i].priors : from_material.results[i].priors;
    EXPECT_EQ(got.results[i].priors, want) << i;
  }
  EXPECT_NE(from_net.results[0].priors, from_material.results[0].priors);  // the check can tell them apart
  EXPECT_EQ(net->net_positions(), 5u);

  // The next search has a fresh budget.
  hybrid.begin_search();
  evaluate(hybrid, got, 6, 2);
  EXPECT_EQ(got.results[6].priors, from_net.results[6].priors);
  EXPECT_EQ(net->net_positions(), 7u);
}

TEST(NetPriorEvaluator, RejectsAMissingNetAndANegativeBudget) {
  EXPECT_THROW(NetPriorEvaluator(nullptr, 10), std::invalid_argument);
  const Model model = random_model(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 8}, 5);
  auto net = std::make_shared<NnEvaluator>(std::make_shared<CpuNet>(model));
  EXPECT_THROW(NetPriorEvaluator(net, -1), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom::nn
