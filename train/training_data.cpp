#include "train/training_data.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <stdexcept>

#include "mushroom/mushroom_game.h"
#include "mushroom/symmetry.h"
#include "nn/features.h"
#include "train/batch_encoders.h"
#include "util/text.h"

namespace mushroom::train {

namespace fs = std::filesystem;

std::vector<std::string> find_shards_from_generation(const std::string& dir, int first) {
  if (first <= 1) return find_shards(dir);
  std::vector<std::string> out;
  bool any_generation = false;
  if (fs::is_directory(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      int g = 0;
      if (!e.is_directory() || name.rfind("gen-", 0) != 0 || !parse_int(name.substr(4), g)) continue;
      any_generation = true;
      if (g < first) continue;
      for (std::string& shard : find_shards(e.path().string())) out.push_back(std::move(shard));
    }
  }
  if (!any_generation)
    throw std::runtime_error("train.window_first_generation = " + std::to_string(first) + " picks a run's gen-NNNN "
                             "folders, and " + dir + " has none (give a run's data/ folder, or set it to 0)");
  std::sort(out.begin(), out.end());
  return out;
}

ShardTotals shard_totals(const std::string& dir) {
  ShardTotals totals;
  for (const std::string& path : find_shards(dir)) {
    int64_t samples = 0;
    totals.games += selfplay::read_shard_meta(path, &samples).games;
    totals.samples += samples;
  }
  return totals;
}

namespace {
// Reads shards newest first until `window_samples` are held, into `out`
// (oldest first), trimmed to the newest window_samples.
void fill_window(TrainingWindow& w, std::vector<selfplay::Sample>& out, const std::vector<std::string>& shards,
                 int window_samples, const std::function<void(const std::string&)>& warn, const std::string& game) {
  std::vector<std::vector<selfplay::Sample>> parts;
  size_t held = 0;
  for (auto it = shards.rbegin(); it != shards.rend() && held < size_t(window_samples); ++it) {
    try {
      std::vector<selfplay::Sample> samples = selfplay::read_shard(*it, game).samples;
      held += samples.size();
      parts.push_back(std::move(samples));
      w.used.push_back(*it);
    } catch (const std::exception& e) {
      w.skipped.push_back(e.what());
      if (warn) warn(std::string("skipping shard: ") + e.what());
    }
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    for (auto& s : *it) out.push_back(std::move(s));
  if (out.size() > size_t(window_samples))
    out.erase(out.begin(), out.begin() + long(out.size() - size_t(window_samples)));
}
}  // namespace

TrainingWindow load_window(const std::vector<std::string>& shards, int window_samples,
                           const std::function<void(const std::string&)>& warn, nn::GameKind game) {
  TrainingWindow w;
  w.game = game;
  fill_window(w, w.samples, shards, window_samples, warn, nn::game_name(game));
  return w;
}

TrainingWindow load_window(const std::vector<std::string>& shards, int window_samples,
                           const std::function<void(const std::string&)>& warn, const std::string& schema) {
  TrainingWindow w;
  fill_window(w, w.samples, shards, window_samples, warn, schema);
  return w;
}

Batch make_batch(const std::vector<selfplay::Sample>& samples, const std::vector<int>& indices, Rng& rng) {
  const int64_t B = int64_t(indices.size());
  std::vector<Position> positions(B);
  std::vector<std::vector<Move>> legal(B);
  std::vector<Symmetry> syms(B);
  int64_t L = 1;
  for (int64_t b = 0; b < B; ++b) {
    syms[b] = Symmetry(rng.uniform(4));
    positions[b] = transform(syms[b], selfplay::position_of(samples[indices[b]]));
    legal[b].resize(MushroomGame::kMaxActions);
    legal[b].resize(MushroomGame::legal_actions(positions[b], legal[b].data()));
    L = std::max<int64_t>(L, int64_t(legal[b].size()));
  }
  Batch batch;
  batch.planes = torch::empty({B, nn::kInputPlanes, kRows, kCols});
  batch.moves = torch::zeros({B, L}, torch::kInt64);
  batch.move_mask = torch::zeros({B, L}, torch::kBool);
  batch.policy_target = torch::zeros({B, L});
  batch.wdl_target = torch::empty({B}, torch::kInt64);
  batch.score_target = torch::empty({B});
  batch.ownership_target = torch::empty({B, kCells});
  batch.weight = torch::empty({B});
  auto moves = batch.moves.accessor<int64_t, 2>();
  auto mask = batch.move_mask.accessor<bool, 2>();
  auto target = batch.policy_target.accessor<float, 2>();
  auto ownership = batch.ownership_target.accessor<float, 2>();
  int64_t* wdl = batch.wdl_target.data_ptr<int64_t>();
  float* score = batch.score_target.data_ptr<float>();
  float* weight = batch.weight.data_ptr<float>();
  std::vector<int> slot_of(kPolicySize, -1);
  for (int64_t b = 0; b < B; ++b) {
    const selfplay::Sample& s = samples[indices[b]];
    nn::encode_features(positions[b], batch.planes[b].data_ptr<float>());
    for (size_t k = 0; k < legal[b].size(); ++k) {
      const int index = legal[b][k].index();
      moves[b][k] = index;
      mask[b][k] = true;
      slot_of[index] = int(k);
    }
    double total = 0;
    for (const auto& [move, prob] : s.policy) {
      const int slot = slot_of[transform(syms[b], Move::from_index(move)).index()];
      if (slot >= 0) target[b][slot] += prob, total += prob;
    }
    // A target move that is not legal would be a corrupt sample; renormalize
    // over what remains (and fall back to uniform if nothing does).
    for (size_t k = 0; k < legal[b].size(); ++k)
      target[b][k] = total > 0 ? float(target[b][k] / total) : 1.0f / float(legal[b].size());
    for (const Move& m : legal[b]) slot_of[m.index()] = -1;
    wdl[b] = s.outcome > 0 ? 0 : s.outcome == 0 ? 1 : 2;
    score[b] = float(selfplay::margin_of(s)) / nn::kScoreScale;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        int tr = r, tc = c;
        transform_cell(syms[b], tr, tc);
        ownership[b][tr * kCols + tc] = float(selfplay::ownership_of(s, r * kCols + c));
      }
    weight[b] = s.weight;
  }
  return batch;
}

Batch make_batch(const TrainingWindow& window, const std::vector<int>& indices, Rng& rng, int feature_version) {
  return batch_encoder(window.game)(window.samples, indices, rng, feature_version);
}

}  // namespace mushroom::train
