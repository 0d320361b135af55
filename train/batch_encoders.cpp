// The registration of every game's batch encoder. A new learnable game
// adds its entry to encoders() and nothing else here.
#include "train/batch_encoders.h"

#include <stdexcept>
#include <utility>

#include "blockgame/blockgame_game.h"
#include "tictactoe/tictactoe.h"
#include "train/game_batch.h"
#include "train/training_data.h"

namespace mushroom::train {

namespace {

// A learnable game (search/game.h): the generic encoder on its schema.
template <typename G>
BatchEncoder game_encoder(nn::GameKind kind) {
  const selfplay::SampleSchema* schema = &selfplay::sample_schema(nn::game_name(kind));
  return [schema](const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng,
                  int feature_version) {
    return make_game_batch<G>(*schema, samples, indices, rng, feature_version ? feature_version : G::kFeatureVersion);
  };
}

const std::vector<std::pair<nn::GameKind, BatchEncoder>>& encoders() {
  static const std::vector<std::pair<nn::GameKind, BatchEncoder>> all = {
      {nn::GameKind::kMushroom,
       [](const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng, int) {
         return make_batch(samples, indices, rng);
       }},
      {nn::GameKind::kBlockgame, game_encoder<blockgame::BlockGame>(nn::GameKind::kBlockgame)},
      {nn::GameKind::kTictactoe, game_encoder<tictactoe::TicTacToe>(nn::GameKind::kTictactoe)},
  };
  return all;
}

}  // namespace

const BatchEncoder& batch_encoder(nn::GameKind kind) {
  for (const auto& [game, encoder] : encoders())
    if (game == kind) return encoder;
  throw std::invalid_argument("no batch encoder registered for " + nn::game_name(kind));
}

}  // namespace mushroom::train
