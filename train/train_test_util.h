// Helpers shared by the train tests.
#pragma once
#include <vector>

#include "mushroom/position.h"
#include "nn/features.h"
#include "mushroom/mushroom_game.h"
#include "train/loss.h"

namespace mushroom::train {

// Synthetic but learnable targets on real positions: the policy target is
// the largest legal rectangle (ties to the first), the outcome is the sign
// of the current margin, the score the margin itself, and the ownership
// the current owners.
inline Batch synthetic_batch(const std::vector<Position>& positions) {
  const int64_t B = int64_t(positions.size());
  Batch b;
  b.planes = torch::empty({B, nn::kInputPlanes, kRows, kCols});
  b.moves = torch::zeros({B, MushroomGame::kMaxActions}, torch::kInt64);
  b.move_mask = torch::zeros({B, MushroomGame::kMaxActions}, torch::kBool);
  b.policy_target = torch::zeros({B, MushroomGame::kMaxActions});
  b.wdl_target = torch::empty({B}, torch::kInt64);
  b.score_target = torch::empty({B});
  b.ownership_target = torch::zeros({B, kCells});
  b.weight = torch::ones({B});
  for (int64_t i = 0; i < B; ++i) {
    const Position& p = positions[i];
    nn::encode_features(p, b.planes[i].data_ptr<float>());
    Move actions[MushroomGame::kMaxActions];
    const int n = MushroomGame::legal_actions(p, actions);
    int best = n - 1;  // the pass, listed last
    for (int k = 0; k < n; ++k) {
      b.moves[i][k] = actions[k].index();
      b.move_mask[i][k] = true;
      if (actions[k].area() > actions[best].area()) best = k;
    }
    b.policy_target[i][best] = 1.0f;
    const int m = p.margin_for_side_to_move();
    b.wdl_target[i] = m > 0 ? 0 : m == 0 ? 1 : 2;
    b.score_target[i] = float(m) / nn::kScoreScale;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        const Owner o = p.owner(r, c);
        if (o != Owner::kNone) b.ownership_target[i][r * kCols + c] = int(o) - 1 == int(p.to_move()) ? 1.0f : -1.0f;
      }
  }
  return b;
}

}  // namespace mushroom::train
