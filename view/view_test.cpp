#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "agents/greedy_agent.h"
#include "mushroom/board_gen.h"
#include "mushroom/position_io.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"
#include "protocol/game_log_test_util.h"
#include "view/dashboard.h"
#include "view/game_viewer.h"
#include "view/chart_library.h"
#include "view/html.h"
#include "view/run_metrics.h"
#include "view/run_plots.h"
#include "view/run_progress.h"

namespace mushroom::view {
namespace {

namespace fs = std::filesystem;

// A whole greedy-vs-greedy game, the first move annotated as self-play does.
GameLog greedy_game(uint64_t seed) {
  GameLog log = greedy_game_log(seed);
  log.moves.front().search = SearchNote{0.25, {{log.moves.front().move, 40, 0.3}, {Move::pass(), 2, -0.5}}};
  return log;
}

fs::path scratch(const std::string& name) {
  static const ScratchFolder folder("view_test");
  const fs::path dir = folder.dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Html, EscapesMarkupAndScriptEnds) {
  EXPECT_EQ(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST(Html, ScriptSafeJsonCannotEndItsScriptElement) {
  EXPECT_EQ(script_safe_json("{\"name\":\"</script><b>\"}"), "{\"name\":\"\\u003c/script>\\u003cb>\"}");
}

// The chart's spec: every series with its points, NaN as null (a gap), and
// the labels; an empty chart says so instead of drawing empty axes.
TEST(Html, ChartFigureCarriesEverySeriesAndSaysWhenEmpty) {
  Chart chart{.title = "t", .x_label = "generation", .y_label = "score", .series = {}, .y_from_zero = true, .y_max = 0};
  EXPECT_NE(chart_figure(chart).find("no data yet"), std::string::npos);
  chart.series.push_back({.label = "a", .x = {1, 2, 3}, .y = {std::nan(""), std::nan(""), std::nan("")}, .points = true});
  EXPECT_NE(chart_figure(chart).find("no data yet"), std::string::npos) << "a series with no finite point";
  chart.series[0].y = {1, std::nan(""), 3};
  chart.series.push_back({.label = "b</script>", .x = {1, 2}, .y = {2, 2}, .points = false});
  const std::string html = chart_figure(chart);
  EXPECT_EQ(html.find("no data yet"), std::string::npos);
  EXPECT_EQ(count(html, "<canvas"), 1u);
  EXPECT_NE(html.find("[[1.0,1.0],[2.0,null],[3.0,3.0]]"), std::string::npos) << html;
  EXPECT_NE(html.find("\"x_label\":\"generation\""), std::string::npos);
  EXPECT_NE(html.find("\"y_label\":\"score\""), std::string::npos);
  EXPECT_EQ(html.find("b</script>"), std::string::npos) << "a label cannot end the spec's element";
  const std::string scripts = chart_scripts();
  EXPECT_NE(scripts.find(std::string("Chart.js v") + chart_library_version()), std::string::npos);
  EXPECT_EQ(scripts.find("</script", 8), scripts.find("</script><script>")) << "the library ends only where we end it";
}

TEST(Html, RoundTickStepsGiveAboutFiveTicks) {
  EXPECT_DOUBLE_EQ(round_tick_step(0, 1), 0.2);
  EXPECT_DOUBLE_EQ(round_tick_step(4.3e6, 4.31e6), 2000);
  EXPECT_DOUBLE_EQ(round_tick_step(1, 3), 0.5);
  for (double lo : {0.0, 0.91, 123.4, 4.3e6})
    for (double span : {0.01, 0.7, 3.0, 55.0, 1.2e4}) {
      const double ticks = span / round_tick_step(lo, lo + span);
      EXPECT_GE(ticks, 2.0) << lo << " + " << span;
      EXPECT_LE(ticks, 5.0 + 1e-9) << lo << " + " << span;
    }
}

TEST(GameViewer, PageHoldsEveryPositionAndTheSearchNotes) {
  const GameLog log = greedy_game(11);
  ViewerOptions options;
  options.title = "greedy <mirror>";
  const std::string html = game_viewer_html(log, options);
  EXPECT_EQ(count(html, "\"owners\":"), log.moves.size() + 1);  // one frame per position
  EXPECT_EQ(count(html, "\"search\":"), 1u);
  EXPECT_NE(html.find("\"value\":0.25"), std::string::npos);
  EXPECT_NE(html.find("greedy &lt;mirror&gt;"), std::string::npos);
  EXPECT_EQ(html.find("greedy <mirror>"), std::string::npos);  // only escaped, also in the JSON
  EXPECT_NE(html.find("final score " + std::to_string(log.score_first) + " : " + std::to_string(log.score_second)),
            std::string::npos);
  // No network: nothing is fetched.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
}

// The page's data is JSON written by nlohmann/json: it parses back whole,
// and a name holding "</script>", quotes or bytes that are not UTF-8 neither
// ends the script element nor breaks the page.
TEST(GameViewer, PageDataIsJsonThatParsesBackWhole) {
  const GameLog log = greedy_game(14);
  ViewerOptions options;
  options.title = "t";
  options.first_name = "a</script><b>\"x\"";
  options.second_name = std::string("bad \xff utf-8");
  const std::string html = game_viewer_html(log, options);
  const std::string open = "<script type=\"application/json\" id=\"game-data\">";
  const size_t from = html.find(open);
  ASSERT_NE(from, std::string::npos);
  const size_t to = html.find("</script>", from);
  ASSERT_NE(to, std::string::npos);
  const nlohmann::json data = nlohmann::json::parse(html.substr(from + open.size(), to - from - open.size()));
  EXPECT_EQ(data["names"][0], "a</script><b>\"x\"");
  EXPECT_EQ(data["names"][1], "bad \xef\xbf\xbd utf-8");  // the stray byte shown as U+FFFD
  EXPECT_EQ(data["frames"].size(), log.moves.size() + 1);
  ASSERT_EQ(data["moves"].size(), log.moves.size());
  EXPECT_EQ(data["rows"], kRows);
  const LoggedMove& first = log.moves[0];
  EXPECT_EQ(data["moves"][0]["player"], int(first.player));
  if (!first.move.is_pass()) {
    EXPECT_EQ(data["moves"][0]["move"], nlohmann::json::array({first.move.r1, first.move.c1, first.move.r2, first.move.c2}));
  }
}

TEST(GameViewer, IllegalMoveIsNamed) {
  GameLog log = greedy_game(12);
  log.moves[2].move = Move::rect(0, 0, 9, 16);  // the whole board never sums to 10
  try {
    game_viewer_html(log, {});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("move 3 "), std::string::npos) << e.what();
  }
}

TEST(GameViewer, WritesFromALogFileAndReportsBadLogs) {
  const fs::path dir = scratch("viewer");
  write_file_atomic((dir / "game.log").string(), format_game_log(greedy_game(13)));
  write_game_viewer((dir / "game.log").string(), (dir / "game.html").string(), {});
  EXPECT_GT(fs::file_size(dir / "game.html"), 10'000u);
  write_file_atomic((dir / "bad.log").string(), "INIT 123\n");
  EXPECT_THROW(write_game_viewer((dir / "bad.log").string(), (dir / "bad.html").string(), {}), ParseError);
  EXPECT_FALSE(fs::exists(dir / "bad.html"));
}

void write_run(const fs::path& dir) {
  fs::create_directories(dir / "metrics");
  write_file_atomic((dir / "metrics" / "gen-0001.json").string(),
                    "{\"generation\": 1, \"promoted\": 1, \"selfplay_games\": 40, \"selfplay_seconds\": 30, "
                    "\"selfplay_games_per_minute\": 80, \"nn_positions\": 0, \"train_seconds\": 5, \"gate_games\": 0, "
                    "\"eval_score\": 0.9, \"eval_margin\": 12.5}\n");
  write_file_atomic((dir / "metrics" / "gen-0002.json").string(),
                    "{\"generation\": 2, \"promoted\": 0, \"selfplay_games\": 40, \"selfplay_seconds\": 60, "
                    "\"selfplay_games_per_minute\": 40, \"nn_positions\": 120000, \"train_seconds\": 5, "
                    "\"gate_games\": 40, \"gate_score\": 0.45, \"eval_score\": -1, \"eval_margin\": 0}\n");
  write_file_atomic((dir / "metrics" / "train-gen-0001.jsonl").string(),
                    "{\"generation\": 1, \"step\": 10, \"samples_seen\": 2560, \"loss\": 4.5, \"policy\": 3.0, "
                    "\"value\": 1.0, \"score\": 0.2, \"ownership\": 0.3, \"policy_entropy\": 3.1}\n"
                    "{\"generation\": 1, \"step\": 20, \"samples_seen\": 5120, \"loss\": 4.0, \"policy\": 2.7, "
                    "\"value\": 0.9, \"score\": 0.2, \"ownership\": 0.2, \"policy_entropy\": 2.9}\n");
  fs::create_directories(dir / "data" / "gen-0001" / "games");
  fs::create_directories(dir / "data" / "gen-0002" / "games");
  write_file_atomic((dir / "data" / "gen-0001" / "games" / "game-100.log").string(), format_game_log(greedy_game(14)));
  write_file_atomic((dir / "data" / "gen-0002" / "games" / "game-200.log").string(), "FIRST 0 0 0 0 1\n");
}

TEST(RunMetrics, ReadsRecordsAndMarksMissingEvaluations) {
  const fs::path dir = scratch("metrics");
  write_run(dir);
  const RunMetrics run = read_run_metrics(dir.string());
  ASSERT_EQ(run.generations.size(), 2u);
  ASSERT_EQ(run.training.size(), 2u);
  EXPECT_TRUE(run.generations[0].promoted);
  ASSERT_TRUE(run.generations[0].eval_score.has_value());
  EXPECT_DOUBLE_EQ(*run.generations[0].eval_score, 0.9);
  EXPECT_FALSE(run.generations[1].eval_score.has_value());
  // Generation 1 was promoted without a gate: no score, not 0.
  EXPECT_TRUE(std::isnan(gate_score_or_nan(run.generations[0])));
  EXPECT_DOUBLE_EQ(gate_score_or_nan(run.generations[1]), 0.45);
  EXPECT_DOUBLE_EQ(run.training[1].samples_seen, 5120);
  EXPECT_DOUBLE_EQ(run.training[1].policy, 2.7);
}

TEST(RunRecords, GenerationRecordRoundTripsThroughJson) {
  GenerationRecord r;
  r.generation = 7;
  r.promoted = true;
  r.selfplay_games = 400;
  r.selfplay_seconds = 61.5;
  r.selfplay_games_per_minute = 390.2;
  r.batch_fill = 0.8;
  r.device_busy = 0.45;
  r.train_steps = 1000;
  r.loss = std::nan("");  // a diverged loss is written as null and read as NaN
  r.gate_score = 0.55;
  r.eval_score = 1.0;
  r.grade = GradeRecord{0.9, 0.95, 0.99, 0.3, 2000};
  r.fit = FitRecord{0.41, 0.45, 0.52, 3000, 0.0031, 0.0042, 2.5, 3.25, 6.5, 7.75};
  r.mushroom_version = "mushroom 1234abcd (Release)";
  r.config_hash = "00ff00ff00ff00ff";
  r.stage_seconds = {{"gate", 30.5}, {"self-play", 61.5}, {"train", 12.25}};
  const GenerationRecord back = parse_generation_record(to_json(r), "test");
  // The stages' lengths, for a resumed run's estimate (util/progress.h).
  EXPECT_EQ(back.stage_seconds, r.stage_seconds);
  EXPECT_TRUE(parse_generation_record("{\"generation\": 1}", "test").stage_seconds.empty());
  EXPECT_THROW(parse_generation_record("{\"generation\": 1, \"stage_seconds\": {\"train\": \"x\"}}", "test"), RecordError);
  EXPECT_EQ(back.generation, 7);
  EXPECT_EQ(back.mushroom_version, "mushroom 1234abcd (Release)");
  EXPECT_EQ(back.config_hash, "00ff00ff00ff00ff");
  EXPECT_THROW(parse_generation_record("{\"generation\": 1, \"config_hash\": 5}", "test"), RecordError);
  EXPECT_TRUE(back.promoted);
  EXPECT_EQ(back.selfplay_games, 400);
  EXPECT_DOUBLE_EQ(back.selfplay_seconds, 61.5);
  EXPECT_DOUBLE_EQ(back.batch_fill, 0.8);
  ASSERT_TRUE(back.device_busy.has_value());
  EXPECT_DOUBLE_EQ(*back.device_busy, 0.45);
  EXPECT_FALSE(parse_generation_record("{\"generation\": 1}", "test").device_busy.has_value());
  EXPECT_EQ(back.train_steps, 1000);
  EXPECT_TRUE(std::isnan(back.loss));
  EXPECT_DOUBLE_EQ(back.gate_score, 0.55);
  ASSERT_TRUE(back.eval_score.has_value());
  EXPECT_DOUBLE_EQ(*back.eval_score, 1.0);
  ASSERT_TRUE(back.grade.has_value());
  EXPECT_DOUBLE_EQ(back.grade->mcts_accuracy, 0.95);
  EXPECT_EQ(back.grade->positions, 2000);
  ASSERT_TRUE(back.fit.has_value());
  EXPECT_DOUBLE_EQ(back.fit->learned_log_loss, 0.41);
  EXPECT_DOUBLE_EQ(back.fit->material_log_loss, 0.52);
  EXPECT_EQ(back.fit->positions, 3000);
  EXPECT_DOUBLE_EQ(back.fit->learned_search_loss, 0.0031);
  EXPECT_DOUBLE_EQ(back.fit->hand_search_loss, 0.0042);
  EXPECT_DOUBLE_EQ(back.fit->learned_search_cells, 2.5);
  EXPECT_DOUBLE_EQ(back.fit->hand_search_cells, 3.25);
  EXPECT_DOUBLE_EQ(back.fit->learned_result_cells, 6.5);
  EXPECT_DOUBLE_EQ(back.fit->hand_result_cells, 7.75);
  r.eval_score.reset();
  r.grade.reset();
  r.fit.reset();
  const GenerationRecord plain = parse_generation_record(to_json(r), "test");
  EXPECT_FALSE(plain.eval_score.has_value());
  EXPECT_FALSE(plain.grade.has_value());
  EXPECT_FALSE(plain.fit.has_value());
}

TEST(RunRecords, TrainLineRoundTripsThroughJson) {
  TrainLine t{3, 250, 64000, 0.001, 4.2, 3.1, 0.9, 0.1, 0.1, 2.8, 5000};
  const TrainLine back = parse_train_line(to_json_line(t), "test");
  EXPECT_EQ(back.generation, 3);
  EXPECT_EQ(back.step, 250);
  EXPECT_EQ(back.samples_seen, 64000);
  EXPECT_DOUBLE_EQ(back.lr, 0.001);
  EXPECT_DOUBLE_EQ(back.policy_entropy, 2.8);
  EXPECT_EQ(back.window, 5000);
}

TEST(RunRecords, BadRecordsNameTheFileAndTheProblem) {
  auto message = [](const std::string& text) {
    try {
      parse_generation_record(text, "metrics/gen-0003.json");
    } catch (const RecordError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{\"generation\": 3, \"promoted\": ").find("metrics/gen-0003.json: not valid JSON"),
            std::string::npos);
  EXPECT_NE(message("[1, 2]").find("metrics/gen-0003.json: a record must be a JSON object"), std::string::npos);
  EXPECT_NE(message("{\"generation\": 3, \"gate_score\": \"high\"}").find("field 'gate_score' is not a number"),
            std::string::npos);
  EXPECT_NE(message("{\"promoted\": 1}").find("no positive 'generation'"), std::string::npos);
  // A number past a double's range is nlohmann's out_of_range, not a
  // parse_error (issue 101's fuzzing: it escaped without the file's name).
  EXPECT_EQ(message("{\"generation\": 3, \"loss\": 1e400}"),
            "metrics/gen-0003.json: not valid JSON ([json.exception.out_of_range.406] number overflow parsing '1e400')");
  const fs::path dir = scratch("bad-metrics");
  write_run(dir);
  write_file_atomic((dir / "metrics" / "gen-0002.json").string(), "{\"generation\": 2, ");
  try {
    read_run_metrics(dir.string());
    FAIL() << "a truncated record was read";
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("gen-0002.json"), std::string::npos) << e.what();
  }
}

TEST(Dashboard, ShowsCurvesTablesAndLinksSampleGames) {
  const fs::path dir = scratch("run");
  write_run(dir);
  const std::string path = write_dashboard(dir.string());
  ASSERT_EQ(path, (dir / "dashboard.html").string());
  const std::string html = read_file(path);
  for (const char* part : {"training loss by term", "score by generation", "self-play throughput", "<table>"})
    EXPECT_NE(html.find(part), std::string::npos) << part;
  EXPECT_EQ(count(html, "data-chart>"), 4u);
  EXPECT_EQ(count(html, "Chart.js v"), 1u) << "the library is inlined once";
  EXPECT_NE(html.find("href=\"games/gen-0001-game-100.html\""), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "games" / "gen-0001-game-100.html"));
  // The broken log is listed with its problem instead of stopping the page.
  EXPECT_NE(html.find("class=\"error\""), std::string::npos);
  EXPECT_NE(html.find("game-200.log"), std::string::npos);
  EXPECT_NE(html.find(">2 generations, "), std::string::npos);
  // The gate that never ran is a gap in its chart and a dash in the table, not 0.
  EXPECT_NE(html.find("\"label\":\"gate (vs best so far)\",\"marked\":true,\"points\":[[1.0,null],[2.0,0.45]]"),
            std::string::npos);
  EXPECT_NE(html.find("<td>1</td><td>yes</td><td>&ndash;</td>"), std::string::npos);
  fs::remove(dir / "metrics" / "gen-0002.json");
  EXPECT_NE(read_file(write_dashboard(dir.string())).find(">1 generation, "), std::string::npos);
  // One chart per figure: the gnuplot PNG is linked, not shown a second time.
  fs::create_directories(dir / "plots");
  write_file_atomic((dir / "plots" / "run.png").string(), "png");
  const std::string with_png = read_file(write_dashboard(dir.string()));
  EXPECT_NE(with_png.find("href=\"plots/run.png\""), std::string::npos);
  EXPECT_EQ(with_png.find("<img"), std::string::npos);
}

// The ladder's chart: the candidates' ratings and the fixed references'
// lines, by hours of the run's clock when every placed record has it.
TEST(Dashboard, TheLadderChartIsByHoursWithTheReferences) {
  const fs::path dir = scratch("ladder-run");
  write_run(dir);
  for (int g = 1; g <= 2; ++g) {
    GenerationRecord r = read_generation_record((dir / "metrics" / ("gen-000" + std::to_string(g) + ".json")).string());
    r.ladder = LadderRecord{-40.0 + 30 * g, -90.0 + 30 * g, 10.0 + 30 * g, 40, "hand",
                            {{"hand", 0.0}, {"eval3-gen11", 25.0 + g}}};
    r.run_seconds = 1800.0 * g;
    write_file_atomic((dir / "metrics" / ("gen-000" + std::to_string(g) + ".json")).string(), to_json(r));
  }
  const GenerationRecord back = read_generation_record((dir / "metrics" / "gen-0002.json").string());
  ASSERT_TRUE(back.ladder.has_value());
  ASSERT_EQ(back.ladder->references.size(), 2u);
  EXPECT_DOUBLE_EQ(back.run_seconds, 3600.0);
  const std::string html = read_file(write_dashboard(dir.string()));
  EXPECT_NE(html.find("ladder (hand = 0)"), std::string::npos);
  EXPECT_NE(html.find("hours of the run"), std::string::npos);
  EXPECT_NE(html.find("eval3-gen11"), std::string::npos);  // the reference's line, and its legend
  EXPECT_EQ(count(html, "data-chart>"), 5u);
  // A record without the clock: the chart goes back to generations.
  GenerationRecord old = back;
  old.run_seconds = std::nan("");
  write_file_atomic((dir / "metrics" / "gen-0002.json").string(), to_json(old));
  const std::string by_generation = read_file(write_dashboard(dir.string()));
  EXPECT_EQ(by_generation.find("hours of the run"), std::string::npos);
  EXPECT_TRUE(std::isnan(read_generation_record((dir / "metrics" / "gen-0002.json").string()).run_seconds));
}

// A run writes its dashboard at its start, before any generation ends: the
// page says so instead of showing empty charts without a word.
TEST(Dashboard, BeforeAnyGenerationThePageSaysSo) {
  const fs::path dir = scratch("new-run");
  const std::string html = read_file(write_dashboard(dir.string()));
  EXPECT_NE(html.find("No generation has finished yet"), std::string::npos);
  EXPECT_NE(html.find(">0 generations, "), std::string::npos);
  write_run(dir);
  EXPECT_EQ(read_file(write_dashboard(dir.string())).find("No generation has finished yet"), std::string::npos);
  // The plots have nothing to draw yet, and say so in one message.
  const fs::path empty = scratch("new-run-plots");
  try {
    draw_run_plots(empty.string());
    FAIL() << "plots were drawn from nothing";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("nothing to plot yet", 0), 0u) << e.what();
  }
}

// The stage under way and the time it and the whole run have left, from
// the run's progress.json; a finished run says so; a page whose run goes
// on reloads itself.
TEST(Dashboard, ShowsTheStageNowRunningAndTheTimeLeft) {
  const fs::path dir = scratch("progress-run");
  write_run(dir);
  ProgressSnapshot s;
  s.active = true;
  s.position = "generation 3 of 30";
  s.stage = "train", s.unit = "steps", s.detail = "loss 0.1234";
  s.done = 1200, s.total = 4000;
  s.elapsed = 56, s.rate = 21.4, s.stage_left = 131;
  s.in_run = true;
  s.run_left = {9660, {}};
  write_run_progress(dir.string(), s, false);
  const std::optional<RunProgress> back = read_run_progress(dir.string());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->state, "running");
  EXPECT_DOUBLE_EQ(back->stage_left, 131);
  EXPECT_EQ(back->line, format_progress_line(s));
  std::string html = read_file(write_dashboard(dir.string()));
  EXPECT_NE(html.find("<span id=\"now-stage\">generation 3 of 30 \u00b7 train 1200/4000 steps</span>"), std::string::npos)
      << html.substr(0, 3000);
  EXPECT_NE(html.find("id=\"stage-left\" data-left=\"131.0\" data-prefix=\"left about \">left about 0:02:11<"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"run-left\" data-left=\"9660.0\" data-prefix=\"left about \">left about 2:41:00<"),
            std::string::npos);
  EXPECT_NE(html.find("<meta http-equiv=\"refresh\" content=\"60\">"), std::string::npos);
  // Stages not timed yet: the run's figure is a lower bound, and says which.
  s.run_left = {131, {"gate"}};
  write_run_progress(dir.string(), s, false);
  html = read_file(write_dashboard(dir.string()));
  EXPECT_NE(html.find(">left at least 0:02:11</span> (gate not timed yet)"), std::string::npos);
  // Finished: no countdown, no reload.
  write_run_progress(dir.string(), s, true);
  html = read_file(write_dashboard(dir.string()));
  EXPECT_NE(html.find("<section id=\"run-now\" data-state=\"finished\"><b>The run has finished.</b>"), std::string::npos);
  EXPECT_EQ(html.find("http-equiv=\"refresh\""), std::string::npos);
  // No progress.json (a run from before it): no section.
  fs::remove(dir / "progress.json");
  EXPECT_EQ(read_file(write_dashboard(dir.string())).find("id=\"run-now\""), std::string::npos);
}

// A learned-evaluation run: its training lines carry one target (the total,
// repeated as "value"; the conv net's other terms 0) and its records a fit.
// Both pictures show the total alone in the loss legend, and the log-loss
// chart marks every predictor's points (a lone generation has no line).
TEST(Dashboard, AnEvaluationRunShowsItsOwnLossAndEveryPredictorsMarkers) {
  const fs::path dir = scratch("eval-run");
  fs::create_directories(dir / "metrics");
  GenerationRecord r;
  r.generation = 1;
  r.promoted = true;
  r.fit = FitRecord{0.41, 0.45, 0.52, 3000, 0.0031, 0.0042, 2.5, 3.25, 6.5, 7.75};
  write_file_atomic((dir / "metrics" / "gen-0001.json").string(), to_json(r));
  write_file_atomic((dir / "metrics" / "train-gen-0001.jsonl").string(),
                    to_json_line({1, 10, 2560, 0.001, 0.031, 0, 0.031, 0, 0, 0, 5000}) +
                        to_json_line({1, 20, 5120, 0.001, 0.027, 0, 0.027, 0, 0, 0, 5000}));
  const RunMetrics run = read_run_metrics(dir.string());
  ASSERT_EQ(trained_loss_terms(run).size(), 1u);
  EXPECT_STREQ(trained_loss_terms(run)[0].label, "total");
  const std::string html = read_file(write_dashboard(dir.string()));
  for (const char* term : {"\"label\":\"policy\"", "\"label\":\"value\"", "\"label\":\"ownership\""})
    EXPECT_EQ(html.find(term), std::string::npos) << term;
  EXPECT_NE(html.find("\"label\":\"total\""), std::string::npos);
  EXPECT_NE(html.find("alpha-beta nodes per second in self-play"), std::string::npos);  // not the net's leaves
  for (const char* predictor : {"learned evaluation", "hand evaluation", "material margin"})
    EXPECT_NE(html.find("\"label\":\"" + std::string(predictor) + "\",\"marked\":true"), std::string::npos) << predictor;
  try {
    draw_run_plots(dir.string());  // gnuplot may be missing here: the script is written first
  } catch (const std::runtime_error&) {
  }
  const std::string script = read_file((dir / "plots" / "plots.gp").string());
  const size_t plot_at = script.find("\nplot ", script.find("training loss by term"));
  ASSERT_NE(plot_at, std::string::npos) << script;
  const std::string loss_line = script.substr(plot_at + 1, script.find('\n', plot_at + 1) - plot_at - 1);
  EXPECT_NE(loss_line.find("title 'total'"), std::string::npos) << loss_line;
  for (const char* term : {"'policy'", "'value'", "'score'", "'ownership'"})
    EXPECT_EQ(loss_line.find(term), std::string::npos) << term << " in " << loss_line;
  // A conv-net run keeps its total and its four terms.
  const fs::path net_dir = scratch("net-run-terms");
  write_run(net_dir);
  const RunMetrics net_run = read_run_metrics(net_dir.string());
  EXPECT_EQ(trained_loss_terms(net_run).size(), 5u);
}

}  // namespace
}  // namespace mushroom::view
