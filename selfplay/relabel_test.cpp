#include "selfplay/relabel.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "endgame/endgame_solver.h"
#include "mushroom/board_gen.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

// Learned-evaluation data of a few depth-2 games, made once for the file.
const std::string& data_dir() {
  static const std::string dir = [] {
    const std::string d = (test_scratch_dir() / "relabel_data").string();
    fs::remove_all(d);
    EvalSelfplayJob job;
    job.job.config.workers = 2;
    job.job.config.samples_per_shard = 60;
    job.job.config.random_opening_plies = 4;
    job.job.out_dir = d;
    job.job.games = 6;
    job.job.first_game_id = 7100;
    job.eval.label_depth = 2;
    run_eval_selfplay(job);
    return d;
  }();
  return dir;
}

RelabelJob job_into(const std::string& name, LabelConfig label) {
  RelabelJob job;
  job.data_root = data_dir();
  job.shards = find_shards(data_dir());
  job.out_dir = (test_scratch_dir() / name).string();
  fs::remove_all(job.out_dir);
  job.label = label;
  job.threads = 2;
  return job;
}

// Every sample of every shard under dir, in shard order.
std::vector<Sample> all_samples(const std::string& dir) {
  std::vector<Sample> out;
  for (const std::string& path : find_shards(dir)) {
    const Shard shard = read_shard(path, mushroom_eval_schema().game);
    out.insert(out.end(), shard.samples.begin(), shard.samples.end());
  }
  return out;
}

// Labelled again with the settings that made it, the data comes back the
// same, sample for sample: the pass keeps positions, results and ids.
TEST(Relabel, TheSameSettingsGiveTheSameData) {
  const RelabelJob job = job_into("relabel_same", LabelConfig{.depth = 2});
  const RelabelReport report = relabel(job);
  const std::vector<Sample> before = all_samples(data_dir()), after = all_samples(job.out_dir);
  ASSERT_EQ(before.size(), after.size());
  ASSERT_GT(before.size(), 50u);
  EXPECT_EQ(report.total.samples, int64_t(before.size()));
  EXPECT_EQ(report.total.abs_cells, 0.0);
  EXPECT_EQ(report.total.sign_flips, 0);
  EXPECT_EQ(report.shards_written, int(find_shards(data_dir()).size()));
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].data, after[i].data) << i;
    EXPECT_EQ(before[i].game_id, after[i].game_id);
    EXPECT_EQ(before[i].outcome, after[i].outcome);
  }
  EXPECT_TRUE(fs::exists(fs::path(job.out_dir) / "report.json"));
}

// With the playing search, each label is that search's score of the same
// position, and the final margins stay.
TEST(Relabel, ThePlayingSearchLabelsTheSamePositions) {
  const RelabelJob job = job_into("relabel_playing", LabelConfig{.depth = 2, .search = "playing"});
  const RelabelReport report = relabel(job);
  const std::vector<Sample> before = all_samples(data_dir()), after = all_samples(job.out_dir);
  ASSERT_EQ(before.size(), after.size());
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  int changed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const Position pos = eval_position_of(after[i]);
    EXPECT_EQ(pos.hash(), eval_position_of(before[i]).hash());
    const EvalLabels old = eval_labels_of(before[i]), now = eval_labels_of(after[i]);
    EXPECT_EQ(now.margin, old.margin);
    if (i % 3 == 0) {
      EXPECT_EQ(now.search_score, AlphaBeta(config).search(pos, far, 2).score);
    }
    changed += now.search_score != old.search_score;
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(report.total.abs_cells, 0.0);
  EXPECT_GT(report.search_nodes, 0u);
}

// The exact mode changes only what the solver proves, to 16 times the
// proven margin; the range keeps only positions inside it, and the limit
// keeps exactly that many.
TEST(Relabel, ExactModeReplacesOnlyProvenLabels) {
  RelabelJob job = job_into("relabel_exact", LabelConfig{.depth = 2, .exact_mushrooms = 90, .exact_nodes = 20'000'000});
  job.mode = "exact";
  job.min_left = 40;
  job.max_left = 90;
  job.limit = 12;
  const RelabelReport report = relabel(job);
  const std::vector<Sample> after = all_samples(job.out_dir);
  ASSERT_EQ(after.size(), 12u);
  std::map<int64_t, const Sample*> before_by_key;  // (game, ply) -> the input sample
  const std::vector<Sample> before = all_samples(data_dir());
  for (const Sample& s : before) before_by_key[s.game_id * 1000 + s.ply] = &s;
  int proven = 0;
  for (const Sample& s : after) {
    const Position pos = eval_position_of(s);
    EXPECT_GE(pos.mushrooms_left(), 40);
    EXPECT_LE(pos.mushrooms_left(), 90);
    const EvalLabels now = eval_labels_of(s), old = eval_labels_of(*before_by_key.at(s.game_id * 1000 + s.ply));
    if (!now.exact) {
      EXPECT_EQ(now.search_score, old.search_score);
      continue;
    }
    ++proven;
    EndgameSolver solver;
    EXPECT_EQ(now.search_score, kEvalScale * solver.solve(pos, {})->margin);
  }
  EXPECT_GT(proven, 0);
  EXPECT_EQ(report.total.proven, proven);
}

// A stopped pass is run again: the shards already written are counted, not
// labelled again, and the report is the same; a shard made with other
// settings is refused by name.
TEST(Relabel, ARepeatedPassKeepsFinishedShards) {
  const RelabelJob job = job_into("relabel_resume", LabelConfig{.depth = 2, .search = "playing"});
  const RelabelReport first = relabel(job);
  const RelabelReport second = relabel(job);
  EXPECT_EQ(second.shards_written, 0);
  EXPECT_EQ(second.shards_skipped, first.shards_written);
  EXPECT_EQ(second.total.samples, first.total.samples);
  EXPECT_DOUBLE_EQ(second.total.abs_cells, first.total.abs_cells);
  RelabelJob fewer = job;
  fewer.limit = 5;
  try {
    relabel(fewer);
    FAIL() << "a shard of another pass was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("other settings"), std::string::npos) << e.what();
  }
}

// The horizon mode searches nothing: with lambda 1 each label is the next
// position's target seen from the other side, along each game's run of
// searched moves; a random move, an exact label and a game's last position
// keep their own. Self-play marks the random moves.
TEST(Relabel, TheHorizonModeMixesEachLabelWithTheNextPositions) {
  const std::vector<Sample> before = all_samples(data_dir());
  int random_moves = 0;
  for (const Sample& s : before) random_moves += eval_labels_of(s).random_move;
  EXPECT_GT(random_moves, 0) << "self-play marks its random moves";
  for (const double lambda : {1.0, 0.25}) {
    RelabelJob job = job_into("relabel_horizon", LabelConfig{.depth = 2});
    job.mode = "horizon";
    job.horizon_lambda = lambda;
    const RelabelReport report = relabel(job);
    EXPECT_EQ(report.search_nodes, 0u);
    const std::vector<Sample> after = all_samples(job.out_dir);
    ASSERT_EQ(after.size(), before.size());
    std::map<std::pair<int64_t, int>, size_t> at;  // (game, ply) -> index
    for (size_t i = 0; i < after.size(); ++i) at[{after[i].game_id, after[i].ply}] = i;
    int mixed = 0, kept = 0;
    for (size_t i = 0; i < after.size(); ++i) {
      const EvalLabels old = eval_labels_of(before[i]), now = eval_labels_of(after[i]);
      EXPECT_EQ(now.random_move, old.random_move);
      EXPECT_EQ(now.exact, old.exact);
      EXPECT_EQ(now.margin, old.margin);
      const auto next = at.find({before[i].game_id, before[i].ply + 1});
      if (next == at.end() || old.exact || old.random_move) {
        EXPECT_EQ(now.search_score, old.search_score);
        ++kept;
        continue;
      }
      const int next_target = eval_labels_of(after[next->second]).search_score;
      const double expected = (1 - lambda) * old.search_score - lambda * next_target;
      EXPECT_NEAR(now.search_score, expected, lambda < 1 ? 1.0 : 0.0) << i;
      ++mixed;
    }
    EXPECT_GT(mixed, 20);
    EXPECT_GT(kept, 5);
  }
}

TEST(Relabel, BadInputIsRefusedByNameBeforeAnyWork) {
  auto refused = [](const RelabelJob& job, const std::string& words) {
    try {
      relabel(job);
      ADD_FAILURE() << "taken: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(job.out_dir)) << "work started before the refusal";
  };
  RelabelJob job = job_into("relabel_bad", LabelConfig{.depth = 2});
  RelabelJob exact_without_solver = job;
  exact_without_solver.mode = "exact";
  refused(exact_without_solver, "exact_mushrooms");
  RelabelJob unknown_mode = job;
  unknown_mode.mode = "deeper";
  refused(unknown_mode, "'deeper'");
  RelabelJob bad_range = job;
  bad_range.min_left = 120;
  bad_range.max_left = 80;
  refused(bad_range, "[120, 80]");
  RelabelJob bad_search = job;
  bad_search.label.search = "quiet";
  refused(bad_search, "'quiet'");
  RelabelJob bad_lambda = job;
  bad_lambda.mode = "horizon";
  bad_lambda.horizon_lambda = 0;
  refused(bad_lambda, "lambda in (0, 1]");

  // The horizon mode needs schema 3, which marks the random moves.
  const std::string old_schema = (test_scratch_dir() / "relabel_v2").string();
  fs::remove_all(old_schema);
  fs::create_directories(old_schema);
  const SampleSchema& v2 = mushroom_eval_v2_schema();
  Sample two = empty_sample(v2);
  two.set(v2.field("cells"), 0, 5);
  ShardMeta v2_meta;
  v2_meta.game = v2.game;
  write_shard((fs::path(old_schema) / "old.h5").string(), v2_meta, {two});
  RelabelJob horizon_on_v2 = job;
  horizon_on_v2.mode = "horizon";
  horizon_on_v2.data_root = old_schema;
  horizon_on_v2.shards = find_shards(old_schema);
  refused(horizon_on_v2, "old.h5: a mushroom-eval2 shard; relabel mode \"horizon\" needs mushroom-eval3");

  // A conv-net shard among the inputs is named.
  const std::string mixed = (test_scratch_dir() / "relabel_mixed").string();
  fs::remove_all(mixed);
  fs::create_directories(mixed);
  fs::copy(find_shards(data_dir()).front(), fs::path(mixed) / "a.h5");
  write_shard((fs::path(mixed) / "b.h5").string(), ShardMeta{}, {sample_from_position(random_board(1))});
  RelabelJob conv = job;
  conv.data_root = mixed;
  conv.shards = find_shards(mixed);
  refused(conv, "b.h5: a mushroom shard");

  // Writing into the data's own folder would replace it.
  RelabelJob in_place = job;
  in_place.out_dir = data_dir();
  try {
    relabel(in_place);
    ADD_FAILURE() << "the input folder was taken as the output";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is the input folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::selfplay
