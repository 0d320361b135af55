#include "nn/torch_net.h"

#include <gtest/gtest.h>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "nn/cpu_net.h"
#include "nn/features.h"
#include "nn/nn_test_util.h"
#include "nn/nn_evaluator.h"
#include "nn/torch_backend.h"

namespace mushroom::nn {
namespace {

torch::Tensor planes_of(const std::vector<Position>& positions) {
  torch::Tensor t = torch::empty({int64_t(positions.size()), kInputPlanes, kRows, kCols});
  for (size_t i = 0; i < positions.size(); ++i) encode_features(positions[i], t[i].data_ptr<float>());
  return t;
}

TEST(TorchNet, ForwardShapes) {
  TorchNet net(NetConfig{.blocks = 2, .channels = 8, .policy_dim = 4, .value_hidden = 8});
  const torch::Tensor planes = planes_of(playout_positions(3, 1));
  const NetOutputs o = net->forward(planes, torch::zeros({3, 5}, torch::kInt64));
  EXPECT_EQ(o.policy.sizes(), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(net->full_policy(planes).sizes(), (std::vector<int64_t>{3, kPolicySize}));
  EXPECT_EQ(o.wdl.sizes(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(o.score.sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(o.ownership.sizes(), (std::vector<int64_t>{3, kCells}));
}

TEST(TorchNet, MaskingLeavesOnlyLegalMoves) {
  TorchNet net(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8});
  const auto positions = playout_positions(4, 2);
  torch::Tensor mask = torch::zeros({4, kPolicySize}, torch::kBool);
  for (int b = 0; b < 4; ++b)
    for (const Move& m : legal_with_pass(positions[b])) mask[b][m.index()] = true;
  const torch::Tensor logp = masked_log_softmax(net->full_policy(planes_of(positions)), mask);
  const torch::Tensor p = logp.exp();
  EXPECT_TRUE(torch::allclose(p.sum(1), torch::ones({4}), 1e-5, 1e-5));
  EXPECT_EQ(p.masked_select(mask.logical_not()).max().item<float>(), 0.0f);
  EXPECT_TRUE(torch::isfinite(logp).all().item<bool>());
}

TEST(TorchNet, GatheredLogitsEqualTheFullTable) {
  TorchNet net(NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8});
  const torch::Tensor planes = planes_of(playout_positions(2, 4));
  const torch::Tensor moves = torch::tensor({0, 5, 28899, kPassIndex, 171 * 3 + 2, 28000}, torch::kInt64).reshape({2, 3});
  const torch::Tensor full = net->full_policy(planes);
  EXPECT_TRUE(torch::allclose(net->forward(planes, moves).policy, full.gather(1, moves), 1e-6, 1e-6));
}

TEST(TorchNet, ModelRoundTripIsExact) {
  const Model m = random_model(NetConfig{.blocks = 2, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 6);
  TorchNet net = make_torch_net(m);
  const Model back = to_model(net);
  for (const auto& [name, t] : m.tensors) EXPECT_EQ(back.at(name).data, t.data) << name;
}

// The two runtimes agree on random weights and random positions.
TEST(TorchNet, ParityWithTheCpuRuntime) {
  for (const NetConfig& config : {NetConfig{}, NetConfig{.blocks = 3, .channels = 48, .policy_dim = 16, .value_hidden = 32}}) {
    const Model model = random_model(config, 31);
    CpuNet cpu(model);
    auto torch_backend = make_torch_backend(model, "cpu");
    const auto positions = playout_positions(24, 77);
    std::vector<std::vector<Move>> moves;
    std::vector<std::vector<int32_t>> slots;
    std::vector<float> planes(positions.size() * kInputSize);
    std::vector<NetQuery> queries;
    for (const Position& p : positions) moves.push_back(legal_with_pass(p));
    for (size_t i = 0; i < positions.size(); ++i) {
      encode_features(positions[i], planes.data() + i * kInputSize);
      slots.emplace_back();
      for (const Move& m : moves[i]) slots.back().push_back(m.index());
    }
    for (size_t i = 0; i < positions.size(); ++i)
      queries.push_back({planes.data() + i * kInputSize, slots[i].data(), int(slots[i].size()), true});
    std::vector<NetEval> from_torch(positions.size());
    torch_backend->evaluate(queries, from_torch);
    double worst = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      NetEval c;
      cpu.evaluate(positions[i], moves[i].data(), int(moves[i].size()), c, true);
      for (int k = 0; k < 3; ++k) worst = std::max(worst, parity_error(c.wdl[k], from_torch[i].wdl[k]));
      worst = std::max(worst, parity_error(c.margin, from_torch[i].margin));
      for (size_t j = 0; j < moves[i].size(); ++j) worst = std::max(worst, parity_error(c.logits[j], from_torch[i].logits[j]));
      for (int j = 0; j < kCells; ++j) worst = std::max(worst, parity_error(c.ownership[j], from_torch[i].ownership[j]));
    }
    std::printf("%s: worst parity error %.2e\n", describe(config).c_str(), worst);
    EXPECT_LE(worst, 1e-4) << describe(config);
  }
}

TEST(TorchNet, SymmetryAveragedPolicyIsEquivariant) {
  const Model model = random_model(NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8}, 8);
  NnEvaluator ev(std::shared_ptr<NetBackend>(make_torch_backend(model, "cpu")),
                 NnEvaluatorConfig{.cache_entries = 0, .symmetry = SymmetryMode::kAll});
  for (const Position& p : playout_positions(4, 19)) {
    for (Symmetry s : kAllSymmetries) {
      const Position t = transform(s, p);
      std::vector<Move> a(MushroomGame::kMaxActions), b(MushroomGame::kMaxActions);
      a.resize(MushroomGame::legal_actions(p, a.data()));
      b.resize(MushroomGame::legal_actions(t, b.data()));
      EvalRequest<MushroomGame> reqs[2] = {{&p, a.data(), int(a.size())}, {&t, b.data(), int(b.size())}};
      EvalResult res[2];
      ev.evaluate(reqs, res);
      for (size_t i = 0; i < a.size(); ++i) {
        const size_t j = std::find(b.begin(), b.end(), transform(s, a[i])) - b.begin();
        ASSERT_LT(j, b.size());
        EXPECT_NEAR(res[0].priors[i], res[1].priors[j], 1e-5);
      }
      EXPECT_NEAR(res[0].value, res[1].value, 1e-5);
    }
  }
}

TEST(TorchNet, UnknownDeviceIsNamed) {
  EXPECT_THROW(parse_device("tpu"), std::runtime_error);
}

}  // namespace
}  // namespace mushroom::nn
