// Every learnable game's batch encoder, for the games of
// train/learnable_games.h.
#include "train/batch_encoders.h"

#include <stdexcept>
#include <utility>

#include "train/game_batch.h"
#include "train/learnable_games.h"
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

// The mushroom game: its own encoder (its features and ownership head).
BatchEncoder encoder_of(LearnableGame<MushroomGame>) {
  return [](const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng, int) {
    return make_batch(samples, indices, rng);
  };
}
// Any other learnable game: the generic encoder on its schema.
template <typename G>
BatchEncoder encoder_of(LearnableGame<G> game) {
  return game_encoder<G>(game.kind);
}

const std::vector<std::pair<nn::GameKind, BatchEncoder>>& encoders() {
  static const std::vector<std::pair<nn::GameKind, BatchEncoder>> all = [] {
    std::vector<std::pair<nn::GameKind, BatchEncoder>> out;
    for_each_learnable_game([&](auto game) { out.emplace_back(game.kind, encoder_of(game)); });
    return out;
  }();
  return all;
}

}  // namespace

const BatchEncoder& batch_encoder(nn::GameKind kind) {
  for (const auto& [game, encoder] : encoders())
    if (game == kind) return encoder;
  throw std::invalid_argument("no batch encoder registered for " + nn::game_name(kind));
}

}  // namespace mushroom::train
