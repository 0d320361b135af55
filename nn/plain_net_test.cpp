#include "nn/plain_net.h"

#include <gtest/gtest.h>

#include "mushroom/playout_positions.h"
#include "nn/cpu_net.h"
#include "nn/features.h"
#include "nn/nn_test_util.h"
#include "nn/reference_net.h"

namespace mushroom::nn {
namespace {

// Channel counts with a compile-time kernel (16, 24, 32) and without (8, 20).
TEST(PlainNet, MatchesThePlainReferenceForward) {
  for (const NetConfig& config : {NetConfig{.blocks = 2, .channels = 8, .policy_dim = 4, .value_hidden = 8},
                                  NetConfig{.blocks = 1, .channels = 20, .policy_dim = 6, .value_hidden = 8},
                                  NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8, .value_hidden = 16},
                                  NetConfig{.blocks = 1, .channels = 24, .policy_dim = 16, .value_hidden = 32},
                                  NetConfig{.blocks = 2, .channels = 32, .policy_dim = 32, .value_hidden = 64}}) {
    const Model model = random_model(config, 23);
    PlainNet net(model);
    EXPECT_LE(worst_error_vs_reference(model, net, playout_positions(5, 31)), 1e-4) << describe(config);
  }
}

TEST(PlainNet, AgreesWithTheEigenPathOnTheDefaultNet) {
  const Model model = random_model(NetConfig{}, 8);
  PlainNet plain(model);
  CpuNet eigen(model);
  for (const Position& p : playout_positions(10, 12)) {
    const auto moves = legal_with_pass(p);
    NetEval a, b;
    plain.evaluate(p, moves.data(), int(moves.size()), a);
    eigen.evaluate(p, moves.data(), int(moves.size()), b);
    EXPECT_LE(parity_error(a.value(), b.value()), 1e-4);
    for (size_t i = 0; i < moves.size(); ++i) EXPECT_LE(parity_error(a.logits[i], b.logits[i]), 1e-4);
  }
}

}  // namespace
}  // namespace mushroom::nn
