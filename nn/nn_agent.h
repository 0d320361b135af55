// The `nn` agent: the engine's MCTS with the network as its evaluator, run
// through the LibTorch-free CPU inference (nn/cpu_net.h), so the bot needs
// no LibTorch. Options: model=FILE (default: the default model), sym=
// none|random|all, cache=N, net_leaves=N (net priors for the first N leaves
// of each search, material values: nn/net_prior_evaluator.h), plus every
// MCTS option (sims, cpuct, gumbel,
// gumbel_k, score_weight, solver, time_scale, tail).
//
// And `alphabeta-policy`: the alphabeta agent (every option of it) with the
// net's policy ordering the moves of its first `plies` plies
// (nn/policy_orderer.h); options policy=FILE (default: the default model)
// and plies=N (1).
#pragma once
#include <string>

namespace mushroom::nn {

// Makes `nn` and `alphabeta-policy` known to make_agent(). Call once at start-up.
void register_nn_agent();

// The model used when none is named: $MUSHROOM_MODEL if set, else
// models/default.h5 under the working directory or the source tree. Throws
// with the places searched when none exists.
std::string default_model_path();

}  // namespace mushroom::nn
