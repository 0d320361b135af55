#include "selfplay/eval_selfplay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "alphabeta/alphabeta.h"
#include "mushroom/movegen.h"
#include "nn/cpu_net.h"
#include "protocol/game_log.h"
#include "selfplay/labeller.h"
#include "selfplay/shard.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

EvalSelfplayJob tiny_job(const std::string& dir) {
  EvalSelfplayJob job;
  job.job.config.workers = 2;
  job.job.config.samples_per_shard = 50;
  job.job.config.random_opening_plies = 6;
  job.job.out_dir = dir;
  job.job.games = 4;
  job.job.first_game_id = 70;
  job.job.config.sample_games = 0;  // only the folder's shards; SampleGamesAreLoggedForTheDashboard keeps logs
  job.eval.label_depth = 2;
  return job;
}

std::vector<Sample> read_all(const std::string& dir, int64_t* games) {
  std::vector<Sample> out;
  *games = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory()) continue;  // games/: the sample game logs
    const Shard shard = read_shard(e.path().string(), mushroom_eval_schema().game);
    *games += shard.meta.games;
    out.insert(out.end(), shard.samples.begin(), shard.samples.end());
  }
  return out;
}

// Every sample is a searched position with the search's own score, and the
// final margins of one game agree between the two sides.
TEST(EvalSelfplay, SamplesCarryTheSearchScoreAndTheGamesResult) {
  const std::string dir = (test_scratch_dir() / "eval_selfplay").string();
  fs::remove_all(dir);
  const SelfplayProgress progress = run_eval_selfplay(tiny_job(dir));
  EXPECT_EQ(progress.games_done, 4);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  EXPECT_EQ(games, 4);
  ASSERT_GT(samples.size(), 4u * 20);
  EXPECT_EQ(int64_t(samples.size()), progress.samples);
  std::map<int64_t, std::map<int, int>> margin_by_side;  // game -> side to move -> margin
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const EvalLabels labels = eval_labels_of(s);
    EXPECT_TRUE(s.policy.empty());
    EXPECT_FALSE(labels.has_teacher);
    EXPECT_EQ(s.outcome, (labels.margin > 0) - (labels.margin < 0));
    margin_by_side[s.game_id][s.to_move] = labels.margin;
    if (i % 7 == 0) {  // the label is the depth-2 search of this very position
      const Position pos = eval_position_of(s);
      EXPECT_EQ(AlphaBeta(AlphaBetaConfig{.tt_bits = 18}).search(pos, far, 2).score, labels.search_score);
    }
  }
  EXPECT_EQ(margin_by_side.size(), 4u);
  for (const auto& [id, sides] : margin_by_side) {
    if (sides.size() == 2) {
      EXPECT_EQ(sides.at(0), -sides.at(1)) << "game " << id;
    }
  }
  EXPECT_THROW(read_shard(fs::directory_iterator(dir)->path().string(), "mushroom"), ShardError);
  fs::remove_all(dir);
}

// The job's first selfplay.sample_games games are kept as game logs
// (OUT/games/), as the conv net's self-play keeps them, for the run's
// dashboard; the progress speaks of positions and nodes, not of batches.
TEST(EvalSelfplay, SampleGamesAreLoggedForTheDashboard) {
  const std::string dir = (test_scratch_dir() / "eval_selfplay_logs").string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.job.config.sample_games = 3;
  std::vector<std::string> lines;
  job.job.progress = [&](const SelfplayProgress& p) { lines.push_back(format_progress(p)); };
  const SelfplayProgress progress = run_eval_selfplay(job);
  EXPECT_TRUE(progress.alpha_beta);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("selfplay: 4/4 games, "), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find(" positions/s, "), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find(" nodes/s, elapsed "), std::string::npos) << lines.back();
  EXPECT_EQ(lines.back().find("batch fill"), std::string::npos) << lines.back();
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  std::map<int64_t, int> positions;  // game -> its samples
  for (const Sample& s : samples) ++positions[s.game_id];
  int logs = 0;
  for (const int64_t id : {70, 71, 72, 73}) {
    const fs::path path = fs::path(dir) / "games" / ("game-" + std::to_string(id) + ".log");
    if (id >= 73) {
      EXPECT_FALSE(fs::exists(path)) << path;
      continue;
    }
    ++logs;
    const GameLog log = read_game_log(path.string());
    EXPECT_TRUE(log.finished);
    // Every searched position is one move of the log, and its moves replay. The start's
    // digits do not carry the opening's taken cells, so the replay's cells are at most the log's.
    EXPECT_EQ(int(log.moves.size()), positions[id]) << path;
    const Position end = log.final_position();
    EXPECT_LE(end.score(kFirst), log.score_first);
    EXPECT_LE(end.score(kSecond), log.score_second);
  }
  EXPECT_EQ(logs, 3);
  fs::remove_all(dir);
}

// With a node budget, each label is the deepest iteration finished within
// it: the same search as the label's, run again.
TEST(EvalSelfplay, ANodeBudgetBoundsEveryLabelledSearch) {
  const std::string dir = (test_scratch_dir() / "eval_nodes").string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.job.games = 2;
  job.eval.label_depth = 8;
  job.eval.label_nodes = 3000;
  run_eval_selfplay(job);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  ASSERT_GT(samples.size(), 20u);
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  int shallower = 0;
  for (size_t i = 0; i < samples.size(); i += 5) {
    const Position pos = eval_position_of(samples[i]);
    const AlphaBetaResult r = AlphaBeta(AlphaBetaConfig{.tt_bits = 18}).search(pos, far, 8, 3000);
    EXPECT_EQ(r.score, eval_labels_of(samples[i]).search_score);
    shallower += r.depth < 8;
  }
  EXPECT_GT(shallower, 0);  // the budget, not the depth, stopped some searches
  fs::remove_all(dir);
}

// Near the end the solver labels and plays: once a position is proven, both
// sides play perfectly, so the game ends with exactly the proven margin.
TEST(EvalSelfplay, ProvenPositionsCarryTheMarginTheGameThenEndsWith) {
  const std::string dir = (test_scratch_dir() / "eval_exact").string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.job.games = 8;
  job.eval.exact_mushrooms = 80;
  job.eval.random_move_fraction = 0.3;  // random moves stop once the solver plays
  run_eval_selfplay(job);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  std::map<int64_t, int> exact_by_game;
  for (const Sample& s : samples) {
    const EvalLabels labels = eval_labels_of(s);
    const Position pos = eval_position_of(s);
    if (!labels.exact) {
      EXPECT_EQ(exact_by_game.count(s.game_id), 0u) << "a heuristic label after a proven one";
      continue;
    }
    EXPECT_LE(pos.mushrooms_left(), 80);
    EXPECT_EQ(labels.search_score, 16 * labels.margin) << "game " << s.game_id << " ply " << s.ply;
    ++exact_by_game[s.game_id];
  }
  EXPECT_GE(exact_by_game.size(), 2u);  // games end with 40 to 100 mushrooms left
  fs::remove_all(dir);
}

// A random move's mark is on the position it was played from (the schema's
// random_move, selfplay/shard.h): from every unmarked position the game
// goes on with the label search's move, and from a marked one with a legal
// move, often another.
TEST(EvalSelfplay, ARandomMovesMarkIsOnThePositionItWasPlayedFrom) {
  const std::string dir = (test_scratch_dir() / "eval_random_moves").string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.eval.random_move_fraction = 0.3;
  run_eval_selfplay(job);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  std::map<std::pair<int64_t, int>, const Sample*> at;  // (game, ply) -> sample
  for (const Sample& s : samples) at[{s.game_id, s.ply}] = &s;
  Labeller labeller(job.eval.label_config(), nullptr);  // the self-play's, afresh: each label clears its table
  int searched = 0, marked = 0, marked_elsewhere = 0;
  for (const Sample& s : samples) {
    const auto next = at.find({s.game_id, s.ply + 1});
    if (next == at.end()) continue;
    const Position pos = eval_position_of(s), reached = eval_position_of(*next->second);
    Position followed = pos;
    followed.apply(labeller.label(pos).best);
    if (!eval_labels_of(s).random_move) {
      EXPECT_EQ(followed, reached) << "game " << s.game_id << " ply " << s.ply
                                   << ": unmarked, but the game did not follow the search";
      ++searched;
      continue;
    }
    ++marked;
    bool legal = false;
    MoveList list;
    const int n = generate_moves(pos, list);
    for (int k = 0; k < n && !legal; ++k) {
      Position after = pos;
      after.apply(list[k]);
      legal = after == reached;
    }
    EXPECT_TRUE(legal) << "game " << s.game_id << " ply " << s.ply << ": no move leads to the next position";
    marked_elsewhere += !(followed == reached);
  }
  EXPECT_GT(searched, 40);
  EXPECT_GT(marked, 5);
  EXPECT_GT(marked_elsewhere, marked / 2) << "the marked moves are mostly the search's own";
  fs::remove_all(dir);
}

// With a teacher net, every sample holds the net's value for the side to move.
TEST(EvalSelfplay, ATeacherLabelsEverySampleWithItsValue) {
  const std::string dir = (test_scratch_dir() / "eval_teacher").string();
  fs::remove_all(dir);
  EvalSelfplayJob job = tiny_job(dir);
  job.job.games = 1;
  job.teacher = std::make_shared<nn::Model>(
      nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 4));
  run_eval_selfplay(job);
  int64_t games = 0;
  const std::vector<Sample> samples = read_all(dir, &games);
  ASSERT_FALSE(samples.empty());
  nn::CpuNet net(*job.teacher);
  for (const Sample& s : samples) {
    const EvalLabels labels = eval_labels_of(s);
    ASSERT_TRUE(labels.has_teacher);
    nn::NetEval e;
    net.evaluate(eval_position_of(s), nullptr, 0, e);
    EXPECT_EQ(labels.teacher, int(std::lround(1000 * e.value())));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mushroom::selfplay
