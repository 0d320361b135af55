#include "train/nnue/eval_window.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "mushroom/movegen.h"
#include "mushroom/static_evaluator.h"
#include "nnue/network.h"
#include "selfplay/shard.h"
#include "util/work_pool.h"

namespace mushroom::train {

EvalRecord eval_record(const Position& pos, const selfplay::EvalLabels& labels) {
  EvalRecord r{};
  for (int cell = 0; cell < kCells; ++cell) {
    const int code = selfplay::eval_cell_code(pos, cell / kCols, cell % kCols);
    r.cells[cell / 2] |= uint8_t(code << (cell % 2 ? 4 : 0));
  }
  r.flags = uint8_t((pos.to_move() == kSecond ? EvalRecord::kSecondToMove : 0) |
                    (pos.last_move_was_pass() ? EvalRecord::kLastPass : 0) | (labels.exact ? EvalRecord::kExact : 0) |
                    (labels.has_teacher ? EvalRecord::kHasTeacher : 0));
  r.search_score = int16_t(labels.search_score);
  r.margin = int16_t(labels.margin);
  r.teacher = int16_t(labels.teacher);
  r.ply = int16_t(pos.ply());
  r.gain = int8_t(std::clamp(best_margin_gain(pos), -127, 127));
  r.mushrooms_left = uint8_t(pos.mushrooms_left());
  return r;
}

LeafMoves leaf_moves_of(const EvalRecord& r, const Position& pos) {
  LeafMoves moves{r.gain, 0};
  best_rectangle_gain(pos, &moves.rectangles);
  return moves;
}

Position position_of(const EvalRecord& rec) {
  Position p;
  for (int cell = 0; cell < kCells; ++cell)
    selfplay::set_eval_cell(p, cell / kCols, cell % kCols, rec.cells[cell / 2] >> (cell % 2 ? 4 : 0) & 15);
  p.set_to_move(rec.flags & EvalRecord::kSecondToMove ? kSecond : kFirst);
  p.set_last_pass(rec.flags & EvalRecord::kLastPass);
  p.set_ply(rec.ply);
  return p;
}

selfplay::EvalLabels labels_of(const EvalRecord& r) {
  return {r.search_score, r.margin, bool(r.flags & EvalRecord::kHasTeacher), r.teacher,
          bool(r.flags & EvalRecord::kExact)};
}

void append_records(const std::vector<selfplay::Sample>& samples, const selfplay::SampleSchema& schema,
                    std::vector<EvalRecord>& out, int threads) {
  const size_t first = out.size();
  out.resize(first + samples.size());
  constexpr int kChunk = 4096;
  const int chunks = int((samples.size() + kChunk - 1) / kChunk);
  run_jobs(chunks, std::max(1, threads), [&](int chunk, int) {
    const size_t end = std::min(samples.size(), size_t(chunk + 1) * kChunk);
    for (size_t i = size_t(chunk) * kChunk; i < end; ++i)
      out[first + i] = eval_record(selfplay::eval_position_of(samples[i], schema),
                                   selfplay::eval_labels_of(samples[i], schema));
  });
}

EvalWindow load_eval_window(const std::vector<std::string>& shards, int64_t window_samples,
                            const std::function<void(const std::string&)>& warn, int threads) {
  EvalWindow w;
  std::vector<std::vector<EvalRecord>> parts;  // newest first
  int64_t held = 0;
  for (auto it = shards.rbegin(); it != shards.rend() && held < window_samples; ++it) {
    try {
      const std::string game = selfplay::read_shard_meta(*it).game;
      if (!selfplay::is_eval_schema(game))
        throw selfplay::ShardError(*it + ": a " + game + " shard where learned-evaluation data (" +
                                   selfplay::eval_schema_names() + ") was expected");
      const selfplay::Shard shard = selfplay::read_shard(*it, game);
      std::vector<EvalRecord> part;
      part.reserve(shard.samples.size());
      append_records(shard.samples, selfplay::sample_schema(game), part, threads);
      held += int64_t(part.size());
      parts.push_back(std::move(part));
      w.used.push_back(*it);
    } catch (const std::exception& e) {
      w.skipped.push_back(e.what());
      if (warn) warn(std::string("skipping shard: ") + e.what());
    }
  }
  w.records.reserve(size_t(std::min(held, window_samples)));
  int64_t drop = std::max<int64_t>(0, held - window_samples);  // the oldest part's oldest positions
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    const int64_t skip = std::min<int64_t>(drop, int64_t(it->size()));
    drop -= skip;
    w.records.insert(w.records.end(), it->begin() + skip, it->end());
  }
  return w;
}

}  // namespace mushroom::train

namespace mushroom::train {

int EvalSampler::phase_band(int mushrooms_left) {
  nnue::Shape bands;
  bands.phase_buckets = kBalanceBands;
  return bands.bucket(mushrooms_left, true);
}

EvalSampler::EvalSampler(const EvalWindow& window, const EvalFilters& filters) : filters_(filters) {
  if (!(filters.focus_weight > 0) || filters.focus_min > filters.focus_max)
    throw std::invalid_argument("the focus band is drawn " + std::to_string(filters.focus_weight) + " times as often at " +
                                std::to_string(filters.focus_min) + ".." + std::to_string(filters.focus_max) +
                                " mushrooms left: the weight must be above 0 and the band not empty");
  const bool focused = filters.focus_weight != 1;
  const int bands = filters.phase_balance ? kBalanceBands : 1;
  groups_.resize(size_t(bands * (focused ? 2 : 1)));
  std::vector<int64_t> focus_count(groups_.size(), 0);
  total_ = int64_t(window.size());
  for (size_t i = 0; i < window.size(); ++i) {
    const EvalRecord& r = window.records[i];
    if (filters.skip_gain_at_least > 0 && r.gain >= filters.skip_gain_at_least) {
      ++gain_left_out_;
      continue;
    }
    if (filters.drop_contradicting > 0) {
      const double search_cells = r.search_score / double(kEvalScale);
      if ((search_cells >= filters.drop_contradicting && r.margin < 0) ||
          (search_cells <= -filters.drop_contradicting && r.margin > 0)) {
        ++contradicting_left_out_;
        continue;
      }
    }
    const int band = filters.phase_balance ? phase_band(r.mushrooms_left) : 0;
    const bool in_focus = r.mushrooms_left >= filters.focus_min && r.mushrooms_left <= filters.focus_max;
    const size_t g = size_t(focused ? 2 * band + in_focus : band);
    groups_[g].push_back(int(i));
    focus_count[g] += in_focus;
    ++kept_;
  }
  if (kept_ == 0)
    throw std::runtime_error("the [evalnet] filters leave none of the window's " + std::to_string(total_) +
                             " positions to train on");
  // Each group's chance: its positions, each weighted (the focus band's by
  // focus_weight); under balance, scaled so that every band sums to 1.
  std::vector<double> chance(groups_.size());
  for (size_t g = 0; g < groups_.size(); ++g)
    chance[g] = double(groups_[g].size()) * (focused && g % 2 ? filters.focus_weight : 1.0);
  if (filters.phase_balance && focused)
    for (size_t band = 0; band < groups_.size(); band += 2) {
      const double band_mass = chance[band] + chance[band + 1];
      if (band_mass > 0) chance[band] /= band_mass, chance[band + 1] /= band_mass;
    }
  std::vector<std::vector<int>> kept_groups;
  std::vector<double> kept_chance;
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (groups_[g].empty()) continue;
    kept_groups.push_back(std::move(groups_[g]));
    kept_chance.push_back(chance[g]);
    group_focus_count_.push_back(focus_count[g]);
  }
  groups_ = std::move(kept_groups);
  // Without the focus, the groups are the balanced bands, drawn equally as
  // before (the same draws from the same seed), or the one group.
  if (!focused) return;
  double sum = 0;
  for (double c : kept_chance) cumulative_.push_back(sum += c);
}

int EvalSampler::draw(Rng& rng) const {
  size_t g = 0;
  if (!cumulative_.empty()) {
    const double u = rng.uniform_double() * cumulative_.back();
    g = size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
    g = std::min(g, groups_.size() - 1);
  } else if (groups_.size() > 1) {
    g = rng.uniform(uint32_t(groups_.size()));
  }
  const std::vector<int>& group = groups_[g];
  return group[rng.uniform(uint32_t(group.size()))];
}

double EvalSampler::focus_share() const {
  double share = 0, previous = 0;
  for (size_t g = 0; g < groups_.size(); ++g) {
    const double chance = cumulative_.empty() ? 1.0 / double(groups_.size())
                                              : (cumulative_[g] - previous) / cumulative_.back();
    if (!cumulative_.empty()) previous = cumulative_[g];
    share += chance * double(group_focus_count_[g]) / double(groups_[g].size());
  }
  return share;
}

std::string EvalSampler::describe() const {
  std::string line = std::to_string(kept_) + " of " + std::to_string(total_) + " positions kept (" +
                     std::to_string(gain_left_out_) + " left out for a gain waiting, " +
                     std::to_string(contradicting_left_out_) + " for contradicting the result)";
  if (filters_.phase_balance) line += "; phase bands drawn equally";
  if (!cumulative_.empty()) {
    char text[160];
    std::snprintf(text, sizeof text, "; positions at %d-%d mushrooms left drawn %.2f times as often (%.1f%% of draws)",
                  filters_.focus_min, filters_.focus_max, filters_.focus_weight, 100 * focus_share());
    line += text;
  }
  line += "; groups of sizes";
  for (const auto& g : groups_) line += " " + std::to_string(g.size());
  return line;
}

}  // namespace mushroom::train
