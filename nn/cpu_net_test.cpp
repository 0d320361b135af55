#include "nn/cpu_net.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "nn/features.h"
#include "nn/nn_test_util.h"
#include "nn/reference_net.h"

namespace mushroom::nn {
namespace {

TEST(CpuNet, MatchesThePlainReferenceForward) {
  for (const NetConfig& config : {NetConfig{.blocks = 2, .channels = 8, .policy_dim = 4, .value_hidden = 8},
                                  NetConfig{.blocks = 1, .channels = 24, .policy_dim = 16, .value_hidden = 32}}) {
    const Model model = random_model(config, 17);
    CpuNet net(model);
    EXPECT_LE(worst_error_vs_reference(model, net, playout_positions(6, 21)), 1e-4) << describe(config);
  }
}

TEST(CpuNet, OutputsAreWellFormed) {
  CpuNet net(random_model(NetConfig{}, 2));
  for (const Position& p : playout_positions(20, 4)) {
    const auto moves = legal_with_pass(p);
    NetEval e;
    net.evaluate(p, moves.data(), int(moves.size()), e);
    EXPECT_NEAR(e.wdl[0] + e.wdl[1] + e.wdl[2], 1.0, 1e-5);
    EXPECT_EQ(e.logits.size(), moves.size());
    for (float l : e.logits) EXPECT_TRUE(std::isfinite(l));
    EXPECT_TRUE(e.ownership.empty());
  }
}

TEST(CpuNet, RepeatedCallsGiveTheSameAnswer) {
  CpuNet net(random_model(NetConfig{.blocks = 3, .channels = 16}, 9));
  const auto positions = playout_positions(3, 2);
  std::vector<NetEval> first(3), again(3);
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 3; ++i) {
      const auto moves = legal_with_pass(positions[i]);
      net.evaluate(positions[i], moves.data(), int(moves.size()), round ? again[i] : first[i]);
    }
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(first[i].logits, again[i].logits);
    EXPECT_EQ(first[i].margin, again[i].margin);
  }
}

}  // namespace
}  // namespace mushroom::nn
