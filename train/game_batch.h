// Training batches for any learnable game (search/game.h), each sample under
// a random symmetry of its game: the state transformed, its legal actions
// listed, the policy target carried over to them (renormalized over the
// legal ones; uniform when none is left), the outcome as the value target.
// The score and ownership targets are zeros: such a game trains those heads
// with weight 0. (The mushroom game's batches, with its margin and ownership
// targets, are make_batch in train/training_data.h.)
#pragma once
#include <algorithm>
#include <vector>

#include "selfplay/sample.h"
#include "train/loss.h"
#include "util/rng.h"

namespace mushroom::train {

template <typename G>
Batch make_game_batch(const selfplay::SampleSchema& schema, const std::vector<selfplay::Sample>& samples,
                      const std::vector<int>& indices, Rng& rng, int feature_version) {
  using Action = typename G::Action;
  const int64_t B = int64_t(indices.size());
  const int64_t cells = int64_t(G::kBoardRows) * G::kBoardCols;
  std::vector<int> syms(static_cast<size_t>(B));
  std::vector<typename G::State> states(static_cast<size_t>(B));
  std::vector<std::vector<Action>> legal(static_cast<size_t>(B));
  int64_t L = 1;
  for (int64_t b = 0; b < B; ++b) {
    syms[size_t(b)] = int(rng.uniform(uint32_t(G::kNumSymmetries)));
    states[size_t(b)] =
        G::transform(syms[size_t(b)], selfplay::state_of_sample<G>(schema, samples[size_t(indices[size_t(b)])]));
    legal[size_t(b)].resize(size_t(G::kMaxActions));
    legal[size_t(b)].resize(size_t(G::legal_actions(states[size_t(b)], legal[size_t(b)].data())));
    L = std::max<int64_t>(L, int64_t(legal[size_t(b)].size()));
  }
  Batch batch;
  batch.planes = torch::empty({B, G::feature_planes(feature_version), G::kBoardRows, G::kBoardCols});
  batch.moves = torch::zeros({B, L}, torch::kInt64);
  batch.move_mask = torch::zeros({B, L}, torch::kBool);
  batch.policy_target = torch::zeros({B, L});
  batch.wdl_target = torch::empty({B}, torch::kInt64);
  batch.score_target = torch::zeros({B});
  batch.ownership_target = torch::zeros({B, cells});
  batch.weight = torch::empty({B});
  auto moves = batch.moves.accessor<int64_t, 2>();
  auto mask = batch.move_mask.accessor<bool, 2>();
  auto target = batch.policy_target.accessor<float, 2>();
  int64_t* wdl = batch.wdl_target.data_ptr<int64_t>();
  float* weight = batch.weight.data_ptr<float>();
  std::vector<int> column_of_slot(static_cast<size_t>(G::kSlotsPerCell * cells));
  for (int64_t b = 0; b < B; ++b) {
    const selfplay::Sample& s = samples[size_t(indices[size_t(b)])];
    const int sym = syms[size_t(b)];
    G::encode(states[size_t(b)], batch.planes[b].data_ptr<float>(), feature_version);
    std::fill(column_of_slot.begin(), column_of_slot.end(), -1);
    const auto& actions = legal[size_t(b)];
    for (size_t k = 0; k < actions.size(); ++k) {
      const int slot = G::action_index(actions[k]);
      moves[b][long(k)] = slot;
      mask[b][long(k)] = true;
      column_of_slot[size_t(slot)] = int(k);
    }
    double total = 0;
    for (const auto& [slot, prob] : s.policy) {
      const int action = G::action_of_index(slot);
      if (action < 0) continue;
      const int k = column_of_slot[size_t(G::action_index(G::transform(sym, Action(action))))];
      if (k >= 0) target[b][k] += prob, total += prob;
    }
    for (size_t k = 0; k < actions.size(); ++k)
      target[b][long(k)] = total > 0 ? float(target[b][long(k)] / total) : 1.0f / float(actions.size());
    wdl[b] = s.outcome > 0 ? 0 : s.outcome == 0 ? 1 : 2;
    weight[b] = s.weight;
  }
  return batch;
}

}  // namespace mushroom::train
