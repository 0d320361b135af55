#include "selfplay/selfplay_runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "mushroom/movegen.h"
#include "protocol/game_log.h"
#include "selfplay/shard.h"
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
  const std::string dir = (fs::temp_directory_path() / ("selfplay_boot_" + std::to_string(getpid()))).string();
  SelfplayJob job = tiny_job(dir);
  int reports = 0;
  job.progress = [&](const SelfplayProgress&) { ++reports; };
  const SelfplayProgress p = run_selfplay(job);
  EXPECT_EQ(p.games_done, 6);
  EXPECT_GT(p.mean_game_plies, 10);
  EXPECT_GT(p.batch_fill, 0.2);
  EXPECT_GE(reports, 1);
  check_shards(dir, 6);
  fs::remove_all(dir);
}

TEST(Selfplay, NetworkGamesWithGumbelMakeValidShards) {
  const std::string dir = (fs::temp_directory_path() / ("selfplay_net_" + std::to_string(getpid()))).string();
  SelfplayJob job = tiny_job(dir);
  job.config.exploration = "gumbel";
  job.config.gumbel_k = 4;
  job.model = std::make_shared<nn::Model>(nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 2));
  job.games = 4;
  run_selfplay(job);
  check_shards(dir, 4);
  fs::remove_all(dir);
}

// The job's first sample_games games are also written as game logs: whole,
// legal games whose moves carry the search's value and candidates.
TEST(Selfplay, SampleGamesAreLoggedWithTheSearchsView) {
  const std::string dir = (fs::temp_directory_path() / ("selfplay_logs_" + std::to_string(getpid()))).string();
  SelfplayJob job = tiny_job(dir);
  job.config.sample_games = 2;
  run_selfplay(job);
  int logs = 0;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "games")) {
    ++logs;
    const GameLog log = parse_game_log(read_file(e.path().string()), e.path().string());
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
  fs::remove_all(dir);
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

// Pipelining changes no game: each game's searches, noise and moves depend
// only on its own seed and on the evaluator's answers, so with a
// deterministic evaluator (the material bootstrap here) the same samples
// come out. Only which shard holds a game may differ: games finish in
// another order.
TEST(Selfplay, PipeliningChangesNoGame) {
  std::vector<std::string> results[2];
  for (int pipelined = 0; pipelined < 2; ++pipelined) {
    const std::string dir = (fs::temp_directory_path() / ("selfplay_pipe" + std::to_string(pipelined) + "_" +
                                                          std::to_string(getpid()))).string();
    SelfplayJob job = tiny_job(dir);
    job.config.pipeline = pipelined == 1;
    job.config.games_in_flight = 4;
    job.games = 8;
    const SelfplayProgress p = run_selfplay(job);
    EXPECT_EQ(p.games_done, 8);
    check_shards(dir, 8);
    results[pipelined] = samples_as_text(dir);
    fs::remove_all(dir);
  }
  ASSERT_GT(results[0].size(), 50u);
  EXPECT_EQ(results[0], results[1]);
}

// The simulated device answers every batch and reports how busy it was.
TEST(Selfplay, TheSimulatedDeviceReportsItsBusyFraction) {
  for (bool pipelined : {false, true}) {
    const std::string dir = (fs::temp_directory_path() / ("selfplay_sim_" + std::to_string(getpid()))).string();
    SelfplayJob job = tiny_job(dir);
    job.config.backend = "simulated";
    job.config.simulated_time_scale = 0.2;
    job.config.pipeline = pipelined;
    job.model = std::make_shared<nn::Model>(
        nn::random_model(nn::NetConfig{.blocks = 1, .channels = 8, .policy_dim = 4, .value_hidden = 8}, 2));
    job.games = 4;
    const SelfplayProgress p = run_selfplay(job);
    EXPECT_EQ(p.games_done, 4);
    EXPECT_GT(p.device_busy, 0.0) << "pipelined " << pipelined;
    EXPECT_LE(p.device_busy, 1.0 + 1e-9);
    EXPECT_GT(p.batch_fill, 0.2);
    check_shards(dir, 4);
    fs::remove_all(dir);
  }
}

TEST(Selfplay, SameSeedSameBoards) {
  EXPECT_EQ(board_seed(1, 5), board_seed(1, 5));
  EXPECT_NE(board_seed(1, 5), board_seed(1, 6));
  EXPECT_NE(board_seed(1, 5), board_seed(2, 5));
}

}  // namespace
}  // namespace mushroom::selfplay
