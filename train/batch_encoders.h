// How each game's samples become training batches, registered once per
// game: the learners' part of a game (the run loop's part, its self-play
// and its judge, is run/learning_game.h). The conv-net trainer asks for
// the encoder of its window's game and never which game it is.
#pragma once
#include <functional>
#include <vector>

#include "nn/model.h"
#include "selfplay/sample.h"
#include "train/loss.h"
#include "util/rng.h"

namespace mushroom::train {

// A training batch of samples[indices], each under a random symmetry, in
// the net's input layout feature_version (0: the game's newest).
using BatchEncoder = std::function<Batch(const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices,
                                         Rng& rng, int feature_version)>;

// The encoder of that game; throws std::invalid_argument if none is registered.
const BatchEncoder& batch_encoder(nn::GameKind kind);

}  // namespace mushroom::train
