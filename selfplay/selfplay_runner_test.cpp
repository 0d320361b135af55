#include "selfplay/selfplay_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "mushroom/movegen.h"
#include "protocol/game_log.h"
#include "selfplay/shard.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

SelfplayJob tiny_job(const std::string& dir) {
  SelfplayJob job;
  job.config.workers = 2;
  job.config.games_in_flight = 3;
  job.config.full_sims = 24;
  job.config.cheap_sims = 6;
  job.config.full_search_fraction = 0.5;
  job.config.samples_per_shard = 40;
  job.out_dir = dir;
  job.games = 6;
  job.first_game_id = 1000;
  return job;
}

// Every sample must be a position of a real game with a legal-move policy
// target and outcome/margin/ownership that agree with each other.
void check_shards(const std::string& dir, int expected_games) {
  int games = 0;
  std::set<int64_t> ids;
  int64_t samples = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".h5") continue;  // games/ holds the sample logs
    const Shard shard = read_shard(e.path().string());
    games += int(shard.meta.games);
    for (const Sample& s : shard.samples) {
      ++samples;
      ids.insert(s.game_id);
      const Position p = position_of(s);
      ASSERT_FALSE(p.game_over());
      for (const auto& [index, prob] : s.policy) {
        const Move m = Move::from_index(index);
        EXPECT_TRUE(m.is_pass() || p.is_legal(m)) << to_string(m);
        EXPECT_GT(prob, 0.0f);
      }
      const int margin = margin_of(s);
      EXPECT_EQ(s.outcome, (margin > 0) - (margin < 0));
      int own = 0;
      for (int cell = 0; cell < kCells; ++cell) own += ownership_of(s, cell);
      EXPECT_EQ(own, margin) << "final ownership must add up to the final margin";
    }
  }
  EXPECT_EQ(games, expected_games);
  EXPECT_GT(samples, 0);
  for (int64_t id : ids) {
    EXPECT_GE(id, 1000);
    EXPECT_LT(id, 1000 + expected_games);
  }
}

TEST(Selfplay, BootstrapGamesMakeValidShards) {
  const ScratchFolder folder("selfplay_boot");
  const std::string dir = folder.dir().string();
  SelfplayJob job = tiny_job(dir);
  int reports = 0;
  job.progress = [&](const SelfplayProgress&) { ++reports; };
  const SelfplayProgress p = run_selfplay(job);
  EXPECT_EQ(p.games_done, 6);
  EXPECT_GT(p.mean_game_plies, 10);
  EXPECT_GT(p.batch_fill, 0.2);
  EXPECT_GE(reports, 1);
  check_shards(dir, 6);
}

TEST(Selfplay, NetworkGamesWithGumbelMakeValidShards) {
  const ScratchFolder folder("selfplay_net");
  const std::string dir = folder.dir().string();
  SelfplayJob job = tiny_job(dir);
  job.config.exploration = "gumbel";
  job.config.gumbel_k = 4;
  job.model = std::make_shared<nn::Model>(nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 2));
  job.games = 4;
  run_selfplay(job);
  check_shards(dir, 4);
}

// The job's first sample_games games are also written as game logs: whole,
// legal games whose moves carry the search's value and candidates.
TEST(Selfplay, SampleGamesAreLoggedWithTheSearchsView) {
  const ScratchFolder folder("selfplay_logs");
  const std::string dir = folder.dir().string();
  SelfplayJob job = tiny_job(dir);
  job.config.sample_games = 2;
  run_selfplay(job);
  int logs = 0;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "games")) {
    ++logs;
    const GameLog log = read_game_log(e.path().string());
    ASSERT_TRUE(log.finished);
    Position pos = log.start;
    int noted = 0;
    for (const LoggedMove& m : log.moves) {
      ASSERT_EQ(m.player, pos.to_move());
      ASSERT_TRUE(pos.is_legal(m.move)) << to_string(m.move);
      if (m.search) {
        ++noted;
        ASSERT_FALSE(m.search->candidates.empty());
        EXPECT_LE(m.search->candidates.size(), 5u);
        for (size_t k = 1; k < m.search->candidates.size(); ++k)
          EXPECT_GE(m.search->candidates[k - 1].visits, m.search->candidates[k].visits);
      }
      pos.apply(m.move);
    }
    EXPECT_TRUE(pos.game_over());
    EXPECT_EQ(pos.score(kFirst), log.score_first);
    EXPECT_EQ(pos.score(kSecond), log.score_second);
    EXPECT_GT(noted, int(log.moves.size()) / 2);
  }
  EXPECT_EQ(logs, 2);
}

// Every sample of a shard folder as text, one line each, sorted by game and
// ply: what a run learns from, whichever shard holds it.
std::vector<std::string> samples_as_text(const std::string& dir) {
  std::vector<std::string> lines;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".h5") continue;
    for (const Sample& s : read_shard(e.path().string()).samples) {
      std::string line = std::to_string(s.game_id) + " ply " + std::to_string(s.ply) + " to_move " +
                         std::to_string(s.to_move) + " outcome " + std::to_string(s.outcome) + " value " +
                         std::to_string(s.search_value) + " data";
      for (uint8_t b : s.data) line += " " + std::to_string(b);
      line += " policy";
      for (const auto& [index, p] : s.policy) line += " " + std::to_string(index) + ":" + std::to_string(p);
      lines.push_back(line);
    }
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The samples of 8 games of tiny_job played with `design` applied.
std::vector<std::string> samples_of_design(const std::string& name, const std::function<void(SelfplayJob&)>& design) {
  const ScratchFolder folder("selfplay_" + name);
  const std::string dir = folder.dir().string();
  SelfplayJob job = tiny_job(dir);
  job.config.games_in_flight = 4;
  job.games = 8;
  design(job);
  const SelfplayProgress p = run_selfplay(job);
  EXPECT_EQ(p.games_done, 8) << name;
  EXPECT_GT(p.batch_fill, 0.1) << name;
  EXPECT_LE(p.batch_fill, 1.0) << name;
  check_shards(dir, 8);
  return samples_as_text(dir);
}

// Pipelining changes no game: each game's searches, noise and moves depend
// only on its own seed and on the evaluator's answers, so with a
// deterministic evaluator (the material bootstrap here) the same samples
// come out. Only which shard holds a game may differ: games finish in
// another order.
TEST(Selfplay, PipeliningChangesNoGame) {
  const auto old = samples_of_design("pipe0", [](SelfplayJob&) {});
  const auto pipelined = samples_of_design("pipe1", [](SelfplayJob& job) { job.config.pipeline = true; });
  ASSERT_GT(old.size(), 50u);
  EXPECT_EQ(old, pipelined);
}

nn::NetConfig tiny_net() { return nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}; }

// Sending every worker's batches through one device queue, merged and split
// into calls of another size, changes no game: the net's answer for a
// position does not depend on its batch, and the evaluator's symmetry is
// drawn from the position.
TEST(Selfplay, TheDeviceQueueChangesNoGame) {
  const auto model = std::make_shared<nn::Model>(nn::random_model(tiny_net(), 3));
  const auto old = samples_of_design("queue0", [&](SelfplayJob& job) { job.model = model; });
  const auto queued = samples_of_design("queue1", [&](SelfplayJob& job) {
    job.model = model;
    job.config.pipeline = true;
    job.config.device_batch = 5;  // the workers' batches are 2 and 4: merged and split
    job.config.device_threads = 2;
  });
  ASSERT_GT(old.size(), 50u);
  EXPECT_EQ(old, queued);
}

// Every game id in a shard folder, each with the shard's file name.
std::map<int64_t, std::string> shard_of_each_game(const std::string& dir) {
  std::map<int64_t, std::string> where;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".h5") continue;
    for (const Sample& s : read_shard(e.path().string()).samples) where[s.game_id] = e.path().filename().string();
  }
  return where;
}

// With carry_games, a job ends once its games have finished and leaves the
// rest in flight; the next job plays them on. Each game is the one it
// would have been without the hand-over, no game is in two shards, and a
// shard holds either carried games or the job's own, so that its name's
// first id lies in the range of the job that started its games.
TEST(Selfplay, CarriedGamesGoOnInTheNextJobUnchanged) {
  const ScratchFolder folder("selfplay_carry");
  const std::string root = folder.dir().string();
  const auto model = std::make_shared<nn::Model>(nn::random_model(tiny_net(), 4));
  SelfplayJob job = tiny_job(root + "/job-0");
  job.model = model;
  job.config.carry_games = true;
  job.config.pipeline = true;
  job.carry = make_game_carry();
  job.games = 6;
  const SelfplayProgress first = run_selfplay(job);
  EXPECT_GE(first.games_done, 6);
  const size_t carried = carried_games(*job.carry);
  EXPECT_GT(carried, 0u) << "the first job must leave games in flight";
  EXPECT_LE(carried, size_t(job.config.workers * job.config.games_in_flight));
  job.out_dir = root + "/job-1";
  job.first_game_id = 2000;
  const SelfplayProgress second = run_selfplay(job);
  EXPECT_GE(second.games_done, 6);

  const auto in_first = shard_of_each_game(root + "/job-0"), in_second = shard_of_each_game(root + "/job-1");
  int carried_over = 0;
  for (const auto& [id, shard] : in_first) {
    EXPECT_LT(id, 2000);
    EXPECT_EQ(in_second.count(id), 0u) << "game " << id << " is in both jobs";
  }
  for (const auto& [id, shard] : in_second) {
    const int64_t shard_first = std::stoll(shard.substr(6, 12));
    EXPECT_EQ(id < 2000, shard_first < 2000) << "game " << id << " in " << shard;
    carried_over += id < 2000;
  }
  EXPECT_GT(carried_over, 0) << "no carried game finished in the second job";

  // The same games played without a hand-over: every carried-run sample is
  // among theirs.
  std::set<std::string> reference;
  for (int64_t first_id : {1000, 2000}) {
    SelfplayJob plain = tiny_job(root + "/plain-" + std::to_string(first_id));
    plain.model = model;
    plain.first_game_id = first_id;
    plain.games = 14;  // more than either job can have started (6 + 2 x 3 in flight)
    run_selfplay(plain);
    for (const std::string& line : samples_as_text(plain.out_dir)) reference.insert(line);
  }
  int compared = 0;
  for (const std::string& dir : {root + "/job-0", root + "/job-1"})
    for (const std::string& line : samples_as_text(dir)) {
      EXPECT_EQ(reference.count(line), 1u) << line.substr(0, 60);
      ++compared;
    }
  EXPECT_GT(compared, 10);
}

// The simulated device answers every batch and reports how busy it was, in
// the old design, pipelined, and behind a device queue with two streams.
TEST(Selfplay, TheSimulatedDeviceReportsItsBusyFraction) {
  for (int design = 0; design < 3; ++design) {
    const bool pipelined = design > 0;
    const ScratchFolder folder("selfplay_sim");
    const std::string dir = folder.dir().string();
    SelfplayJob job = tiny_job(dir);
    job.config.backend = "simulated";
    job.config.simulated_time_scale = 0.2;
    job.config.pipeline = pipelined;
    job.config.device_batch = design == 2 ? 4 : 0;
    job.model = std::make_shared<nn::Model>(nn::random_model(tiny_net(), 2));
    job.games = 4;
    const SelfplayProgress p = run_selfplay(job);
    EXPECT_EQ(p.games_done, 4);
    EXPECT_GT(p.device_busy, 0.0) << "design " << design;
    EXPECT_LE(p.device_busy, 1.0 + 1e-9);
    EXPECT_GT(p.batch_fill, 0.2);
    check_shards(dir, 4);
  }
}

TEST(Selfplay, SameSeedSameBoards) {
  EXPECT_EQ(board_seed(1, 5), board_seed(1, 5));
  EXPECT_NE(board_seed(1, 5), board_seed(1, 6));
  EXPECT_NE(board_seed(1, 5), board_seed(2, 5));
}

}  // namespace
}  // namespace mushroom::selfplay
