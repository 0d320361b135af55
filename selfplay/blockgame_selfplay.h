// Self-play for BLOCKGAME (configs/blockgame.toml): the same job, workers,
// batched search step and shards as the mushroom game's self-play, on the
// 5x5 board. Games start from the empty board after k uniformly random
// placements (k drawn from 0..selfplay.random_opening_plies), so that the
// data covers positions strong play avoids. Without a model the search runs
// on uniform priors and a neutral value (terminal positions still score).
#pragma once
#include "selfplay/selfplay_runner.h"

namespace mushroom::selfplay {

SelfplayProgress run_blockgame_selfplay(const SelfplayJob& job);

}  // namespace mushroom::selfplay
