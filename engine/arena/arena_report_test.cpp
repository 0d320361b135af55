// report.json against report.txt, from the same games (made up here, no
// program runs): every figure the text prints, the JSON holds the same.
#include "arena/arena_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "arena/arena_report_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

ArenaGame game(int board, bool a_first, int first_cells, int second_cells, int forfeiter = -1) {
  ArenaGame g;
  g.board = board;
  g.a_first = a_first;
  g.done = true;
  g.result.log.score_first = first_cells;
  g.result.log.score_second = second_cells;
  if (forfeiter >= 0) {
    // forfeiter: 0 is A, 1 is B.
    g.result.log.aborted_by = (forfeiter == 0) == a_first ? kFirst : kSecond;
    g.result.log.abort_reason = "illegal move 3 4 5 6: no rectangle";
    g.result.log.score_first = g.result.log.score_second = 0;
  }
  return g;
}

// Four boards, both seats, every kind of pair and a forfeit by B; both
// sequential tests reported.
TEST(ArenaReport, TheJsonHoldsTheTextsFiguresFromTheSameGames) {
  ArenaConfig config;
  config.command[0] = "./new NYPC";
  config.command[1] = "./old NYPC";
  config.label[0] = "new", config.label[1] = "old";
  config.boards = 4;
  config.seed = 9;
  config.sprt = Sprt{0, 15};
  config.margin_sprt = MarginSprt{};
  config.margin_sprt->min_games = 4;
  ArenaReport report;
  report.games = {game(0, true, 90, 80),  game(0, false, 85, 85),     game(1, true, 70, 100), game(1, false, 60, 110),
                  game(2, true, 95, 75),  game(2, false, 0, 0, 1),   game(3, true, 80, 81),  game(3, false, 88, 82)};
  report.resumed = 2;
  const auto pairs = pair_scores(report.games);
  const auto margins = pair_margins(report.games, config.margin_cap, true);
  report.sprt = {"undecided", config.sprt->llr(pairs), int(2 * pairs.size())};
  report.margin_sprt = {"undecided", config.margin_sprt->on_margins().llr(margins), int(2 * margins.size())};

  const fs::path dir = "build-test-tmp/arena-report-json";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string text = format_report(config, report);
  write_report_json((dir / "report.json").string(), config, report);
  const nlohmann::json j = nlohmann::json::parse(read_file((dir / "report.json").string()));

  EXPECT_EQ(j["schema"], "mushroom-arena-report");
  EXPECT_EQ(j["version"], kArenaReportVersion);
  EXPECT_EQ(report_json_disagreements(j, text), std::vector<std::string>{}) << text << "\n" << j.dump(2);
  // A few figures by hand: 8 games, A wins 4 (one by B's forfeit), draws 1, loses 3.
  EXPECT_EQ(j["wdl"]["total"], (nlohmann::json{{"w", 4}, {"d", 1}, {"l", 3}}));
  EXPECT_EQ(j["games"]["read_back"], 2);
  EXPECT_EQ(j["forfeits"]["b"]["count"], 1);
  EXPECT_EQ(j["forfeits"]["b"]["by_reason"]["illegal move"], 1);
  EXPECT_EQ(j["settings"]["seed"], 9);
  EXPECT_EQ(j["programs"]["a"]["name"], "new");
  EXPECT_TRUE(j["programs"]["a"].contains("fingerprint"));
  EXPECT_TRUE(j["sprt"]["wdl"]["stops_the_match"]);  // stop_on_margin is false: the W/D/L test stops it
  EXPECT_FALSE(j["sprt"]["margin"]["stops_the_match"]);
  EXPECT_EQ(j["sprt"]["wdl"]["elo1"], 15.0);

  // Without the tests, both are null; the text says nothing of them.
  config.sprt.reset();
  config.margin_sprt.reset();
  write_report_json((dir / "report.json").string(), config, report);
  const nlohmann::json plain = nlohmann::json::parse(read_file((dir / "report.json").string()));
  EXPECT_TRUE(plain["sprt"]["wdl"].is_null());
  EXPECT_TRUE(plain["sprt"]["margin"].is_null());
  EXPECT_EQ(report_json_disagreements(plain, format_report(config, report)), std::vector<std::string>{});
}

}  // namespace
}  // namespace mushroom
