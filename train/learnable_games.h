// The games the learning pipeline knows, named once. Each layer makes its
// part of every game by walking this list: the learners' batch encoders
// (train/batch_encoders.cpp) and the run loop's self-play and judge
// (run/learning_games.cpp). A game added here must be given its part in
// both, or they do not compile.
#pragma once
#include "blockgame/blockgame_game.h"
#include "mushroom/mushroom_game.h"
#include "nn/model.h"
#include "tictactoe/tictactoe.h"

namespace mushroom::train {

// One learnable game: its adapter type (search/game.h) and its kind.
template <typename G>
struct LearnableGame {
  using Game = G;
  nn::GameKind kind;
};

// Calls visit(LearnableGame<G>{kind}) for every learnable game, in this order.
template <class Visit>
void for_each_learnable_game(Visit&& visit) {
  visit(LearnableGame<MushroomGame>{nn::GameKind::kMushroom});
  visit(LearnableGame<blockgame::BlockGame>{nn::GameKind::kBlockgame});
  visit(LearnableGame<tictactoe::TicTacToe>{nn::GameKind::kTictactoe});
}

}  // namespace mushroom::train
