#include "train/nnue/eval_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "mushroom/mushroom_evaluators.h"
#include "mushroom/playout_positions.h"
#include "nnue/network.h"
#include "selfplay/shard.h"
#include "train/training_data.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::train {
namespace {

namespace fs = std::filesystem;

class EvalWindowTest : public ::testing::Test {
 protected:
  ScratchFolder folder_{"eval_window_test"};
  const fs::path& dir_ = folder_.dir();
};

selfplay::EvalLabels labels_for(int i) {
  return {(i % 50 - 25) * 16 + i % 16, i % 21 - 10, i % 3 == 0, (i * 37) % 2001 - 1000, i % 5 == 0, i % 7 == 0};
}

// A position survives packing and unpacking, labels and all, in the
// schema-3 shards self-play writes and the schema-2 and schema-1 shards of
// older runs.
TEST_F(EvalWindowTest, PositionsAndLabelsSurviveEverySchema) {
  const std::vector<Position> positions = playout_positions(300, 7);
  std::vector<selfplay::Sample> v3, v2, v1;
  for (size_t i = 0; i < positions.size(); ++i) {
    const selfplay::EvalLabels l = labels_for(int(i));
    v3.push_back(selfplay::eval_sample(positions[i], l));
    const auto& schema2 = selfplay::mushroom_eval_v2_schema();
    selfplay::Sample two = selfplay::empty_sample(schema2);
    const selfplay::Sample& three = v3.back();
    for (const std::string name : {"cells", "last_pass", "search_score", "exact", "margin", "teacher", "has_teacher"})
      for (int k = 0; k < schema2.field(name).width; ++k)
        two.set(schema2.field(name), k, three.get(selfplay::mushroom_eval_schema().field(name), k));
    two.to_move = three.to_move;
    two.ply = three.ply;
    v2.push_back(two);
    selfplay::Sample old = selfplay::sample_from_position(positions[i], selfplay::mushroom_eval_v1_schema());
    const auto& schema = selfplay::mushroom_eval_v1_schema();
    old.set(schema.field("search_score"), 0, l.search_score);
    old.set(schema.field("margin"), 0, l.margin);
    old.set(schema.field("teacher"), 0, l.has_teacher ? l.teacher : 0);
    old.set(schema.field("has_teacher"), 0, l.has_teacher);
    v1.push_back(old);
  }
  selfplay::ShardMeta meta;
  meta.game = "mushroom-eval";
  selfplay::write_shard((dir_ / "a-old.h5").string(), meta, v1);
  meta.game = "mushroom-eval2";
  selfplay::write_shard((dir_ / "b-v2.h5").string(), meta, v2);
  meta.game = "mushroom-eval3";
  selfplay::write_shard((dir_ / "c-new.h5").string(), meta, v3);
  const EvalWindow w = load_eval_window(find_shards(dir_.string()), 1'000'000, nullptr, 2);
  ASSERT_EQ(w.size(), 3 * positions.size());
  EXPECT_TRUE(w.skipped.empty());
  for (size_t k = 0; k < w.size(); ++k) {
    const size_t i = k % positions.size();
    const Position& want = positions[i];
    const EvalRecord& r = w.records[k];
    Position got = position_of(r);
    got.set_game_over(want.game_over());
    EXPECT_TRUE(got == want) << "position " << k;
    const selfplay::EvalLabels l = labels_of(r), expected = labels_for(int(i));
    EXPECT_EQ(l.search_score, expected.search_score);
    EXPECT_EQ(l.margin, expected.margin);
    EXPECT_EQ(l.has_teacher, expected.has_teacher);
    if (expected.has_teacher) {
      EXPECT_EQ(l.teacher, expected.teacher);
    }
    EXPECT_EQ(l.exact, k >= positions.size() && expected.exact);  // schema 1 has no exact flag
    // Only schema 3 says which moves were random; the sample keeps it.
    if (k >= 2 * positions.size()) {
      EXPECT_EQ(selfplay::eval_labels_of(v3[i]).random_move, expected.random_move);
    } else if (k >= positions.size()) {
      EXPECT_FALSE(selfplay::eval_labels_of(v2[i], selfplay::mushroom_eval_v2_schema()).random_move);
    }
    EXPECT_EQ(r.gain, best_margin_gain(want));
    EXPECT_EQ(r.mushrooms_left, want.mushrooms_left());
    EXPECT_EQ(mover_moved_first(r), want.to_move() == kFirst);
  }
}

// The window is the newest positions; a shard of another schema or a
// corrupt one is named and skipped.
TEST_F(EvalWindowTest, KeepsTheNewestAndNamesWhatItSkips) {
  const std::vector<Position> positions = playout_positions(90, 11);
  selfplay::ShardMeta meta;
  meta.game = "mushroom-eval3";
  for (int part = 0; part < 3; ++part) {
    std::vector<selfplay::Sample> samples;
    for (int i = 0; i < 30; ++i) samples.push_back(selfplay::eval_sample(positions[size_t(part * 30 + i)], labels_for(part)));
    selfplay::write_shard((dir_ / ("shard-" + std::to_string(part) + ".h5")).string(), meta, samples);
  }
  std::ofstream(dir_ / "shard-3.h5") << "not an HDF5 file";
  std::vector<selfplay::Sample> plain = {selfplay::sample_from_position(positions[0])};
  selfplay::ShardMeta conv;
  selfplay::write_shard((dir_ / "shard-4.h5").string(), conv, plain);
  std::vector<std::string> warnings;
  const EvalWindow w =
      load_eval_window(find_shards(dir_.string()), 45, [&](const std::string& m) { warnings.push_back(m); });
  ASSERT_EQ(w.size(), 45u);
  EXPECT_EQ(w.used.size(), 2u);  // shards 2 and 1: the newest 45 positions
  EXPECT_EQ(labels_of(w.records.back()).search_score, labels_for(2).search_score);
  EXPECT_EQ(labels_of(w.records.front()).search_score, labels_for(1).search_score);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("shard-4.h5: a mushroom shard where learned-evaluation data"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[1].find("shard-3.h5"), std::string::npos) << warnings[1];
}

// The filters leave out what they say, and phase balance draws each band
// about equally often.
TEST_F(EvalWindowTest, FiltersAndPhaseBalance) {
  EvalWindow w;
  const std::vector<Position> positions = playout_positions(400, 13);
  for (size_t i = 0; i < positions.size(); ++i) {
    selfplay::EvalLabels l;
    l.search_score = (i % 4 == 0 ? 20 : 1) * 16;  // a quarter say "20 cells ahead"
    l.margin = i % 8 == 0 ? -3 : 3;               // half of those lost
    w.records.push_back(eval_record(positions[i], l));
  }
  int big_gains = 0, contradicting = 0;
  for (const EvalRecord& r : w.records) {
    big_gains += r.gain >= 6;
    contradicting += r.gain < 6 && r.search_score >= 10 * 16 && r.margin < 0;
  }
  ASSERT_GT(big_gains, 0);
  const EvalSampler sampler(w, {6, 10, false});
  EXPECT_EQ(sampler.kept(), int64_t(w.size()) - big_gains - contradicting);
  Rng rng(3);
  for (int i = 0; i < 2000; ++i) {
    const EvalRecord& r = w.records[size_t(sampler.draw(rng))];
    ASSERT_LT(r.gain, 6);
    ASSERT_FALSE(r.search_score >= 160 && r.margin < 0);
  }
  const EvalSampler balanced(w, {0, 0, true});
  std::map<int, int> draws;
  for (int i = 0; i < 20000; ++i)
    ++draws[EvalSampler::phase_band(w.records[size_t(balanced.draw(rng))].mushrooms_left)];
  ASSERT_GE(draws.size(), 2u);
  for (const auto& [band, n] : draws) EXPECT_NEAR(n, 20000.0 / double(draws.size()), 600) << "band " << band;
  EXPECT_THROW(EvalSampler(EvalWindow{}, {0, 0, false}), std::runtime_error);  // nothing to draw from
}

// The focus band's positions are drawn focus_weight times as often as the
// rest, alone and within balanced phase bands; a weight of 1 draws as the
// sampler always did, whatever the band; bad bands are refused by name.
TEST_F(EvalWindowTest, TheFocusBandIsDrawnAsOftenAsItsWeightSays) {
  EvalWindow w;
  for (const Position& pos : playout_positions(600, 17)) w.records.push_back(eval_record(pos, labels_for(3)));
  EvalFilters focus;
  focus.focus_min = 95;
  focus.focus_max = 130;
  double in_band = 0;
  for (const EvalRecord& r : w.records) in_band += r.mushrooms_left >= 95 && r.mushrooms_left <= 130;
  const double n = double(w.size());
  ASSERT_GT(in_band, 30);
  ASSERT_LT(in_band, n - 30);
  // The band's ends are in the data, so that a band without them would draw differently.
  const auto has = [&](int left) {
    return std::any_of(w.records.begin(), w.records.end(), [&](const EvalRecord& r) { return r.mushrooms_left == left; });
  };
  ASSERT_TRUE(has(95) && has(130) && has(94) && has(131));
  const auto share_of_draws = [&](const EvalSampler& sampler, uint64_t seed) {
    Rng rng(seed);
    int hits = 0;
    for (int i = 0; i < 40000; ++i) {
      const int left = w.records[size_t(sampler.draw(rng))].mushrooms_left;
      hits += left >= 95 && left <= 130;
    }
    return hits / 40000.0;
  };
  // Unweighted: the band as often as the games made it.
  const EvalSampler plain(w, focus);
  EXPECT_NEAR(plain.focus_share(), in_band / n, 1e-12);
  EXPECT_NEAR(share_of_draws(plain, 5), in_band / n, 0.01);
  // Three times as often: 3b / (3b + rest).
  focus.focus_weight = 3;
  const EvalSampler tripled(w, focus);
  const double expected = 3 * in_band / (3 * in_band + (n - in_band));
  EXPECT_NEAR(tripled.focus_share(), expected, 1e-12);
  EXPECT_NEAR(share_of_draws(tripled, 6), expected, 0.01);
  EXPECT_EQ(tripled.kept(), int64_t(w.size()));  // weights, not a filter
  EXPECT_NE(tripled.describe().find("95-130 mushrooms left drawn 3.00 times as often"), std::string::npos)
      << tripled.describe();
  // A third as often.
  focus.focus_weight = 1.0 / 3;
  const EvalSampler third(w, focus);
  EXPECT_NEAR(third.focus_share(), in_band / (in_band + 3 * (n - in_band)), 1e-12);
  EXPECT_NEAR(share_of_draws(third, 7), in_band / (in_band + 3 * (n - in_band)), 0.01);
  // Within balanced bands: each band still drawn equally, and inside the
  // band holding the focus, its positions three times as often.
  focus.focus_weight = 3;
  focus.phase_balance = true;
  const EvalSampler balanced(w, focus);
  std::map<int, double> band_size, band_focus;
  for (const EvalRecord& r : w.records) {
    const int band = EvalSampler::phase_band(r.mushrooms_left);
    ++band_size[band];
    band_focus[band] += r.mushrooms_left >= 95 && r.mushrooms_left <= 130;
  }
  double balanced_expected = 0;
  for (const auto& [band, size] : band_size)
    balanced_expected += 3 * band_focus[band] / (3 * band_focus[band] + size - band_focus[band]) / double(band_size.size());
  EXPECT_NEAR(balanced.focus_share(), balanced_expected, 1e-12);
  Rng rng(8);
  std::map<int, int> draws;
  int hits = 0;
  for (int i = 0; i < 40000; ++i) {
    const int left = w.records[size_t(balanced.draw(rng))].mushrooms_left;
    ++draws[EvalSampler::phase_band(left)];
    hits += left >= 95 && left <= 130;
  }
  EXPECT_NEAR(hits / 40000.0, balanced_expected, 0.01);
  // Each band about 10,000 draws (a standard deviation of about 87).
  ASSERT_EQ(draws.size(), band_size.size());
  for (const auto& [band, size] : band_size)
    EXPECT_NEAR(draws[band], 40000.0 / double(band_size.size()), 450) << "band " << band;
  // Weight 1 draws as the sampler did before the focus, draw for draw: one
  // uniform index into the window, or with balance a uniform band, then a
  // uniform position within it.
  Rng a(9), b(9);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(plain.draw(a), int(b.uniform(uint32_t(w.size()))));
  EXPECT_EQ(plain.describe().find("times as often"), std::string::npos) << plain.describe();
  EvalFilters balance_only;
  balance_only.phase_balance = true;
  const EvalSampler balanced_plain(w, balance_only);
  std::vector<std::vector<int>> bands(EvalSampler::kBalanceBands);
  for (size_t i = 0; i < w.size(); ++i)
    bands[size_t(EvalSampler::phase_band(w.records[i].mushrooms_left))].push_back(int(i));
  bands.erase(std::remove_if(bands.begin(), bands.end(), [](const std::vector<int>& v) { return v.empty(); }),
              bands.end());
  Rng c(10), d(10);
  for (int i = 0; i < 1000; ++i) {
    const std::vector<int>& drawn_band = bands[d.uniform(uint32_t(bands.size()))];
    ASSERT_EQ(balanced_plain.draw(c), drawn_band[d.uniform(uint32_t(drawn_band.size()))]);
  }
  // A band of one value is a band.
  EvalFilters one_value;
  one_value.focus_weight = 2;
  one_value.focus_min = one_value.focus_max = 110;
  EXPECT_NO_THROW(EvalSampler(w, one_value));
  // Bad bands and weights.
  EvalFilters empty_band;
  empty_band.focus_min = 131;
  empty_band.focus_max = 95;
  try {
    const EvalSampler refused(w, empty_band);
    FAIL() << "an empty focus band was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("131..95"), std::string::npos) << e.what();
  }
  EvalFilters zero_weight;
  zero_weight.focus_weight = 0;
  EXPECT_THROW(EvalSampler(w, zero_weight), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom::train
