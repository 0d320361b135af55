#include "protocol/game_analysis.h"

#include <gtest/gtest.h>

#include <sstream>

#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"
#include "mushroom/position_io.h"
#include "protocol/bot_session.h"
#include "protocol/game_log_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

// The columns of a move line: #, player, played, cells, before, after,
// loss, judgement, depth, proved, best, worst, then the expected line's moves.
std::vector<std::string> columns(const std::string& line) {
  std::vector<std::string> out;
  for (std::string_view w : split_words(line)) out.emplace_back(w);
  return out;
}

MoveAnalysis move_with_loss(double loss) {
  MoveAnalysis m;
  m.before_cells = 1;
  m.after_cells = 1 - loss;
  return m;
}

TEST(MoveAnalysis, MarksTheCostliestMovesThatLostEnough) {
  std::vector<MoveAnalysis> moves;
  for (double loss : {0.5, 3.0, 1.0, 3.0, -2.0, 2.0}) moves.push_back(move_with_loss(loss));
  mark_costliest_moves(moves, 3, 1.0);
  const std::vector<int> marks{0, 1, 0, 2, 0, 3};  // of equal losses the earlier move ranks first
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(moves[i].mark, marks[i]) << "move " << i;
  mark_costliest_moves(moves, 10, 1.0);  // 0.5 and the gain stay unmarked however many are asked for
  const std::vector<int> all{0, 1, 4, 2, 0, 3};
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(moves[i].mark, all[i]) << "move " << i;
  mark_costliest_moves(moves, 0, 1.0);
  for (const MoveAnalysis& m : moves) EXPECT_EQ(m.mark, 0);
}

TEST(MoveAnalysis, ALineHasTheHeadersColumns) {
  MoveAnalysis m;
  m.number = 12;
  m.player = kSecond;
  m.played = Move::rect(3, 4, 5, 6);
  m.gain = 4;
  m.before = SearchReport{Move::rect(1, 2, 1, 4), 1.25, 9, 5000, false,
                          {Move::rect(1, 2, 1, 4), Move::rect(0, 0, 0, 1), Move::pass()}};
  m.before_cells = 1.25;
  m.after_cells = -0.5;
  m.mark = 1;
  m.judgement = judge_loss(m.loss(), LossThresholds{});
  const std::vector<std::string> expected{"12", "SECOND", "(3,4)-(5,6)", "+4", "+1.25", "-0.50", "1.75", "inaccuracy", "9",
                                          "-", "(1,2)-(1,4)", "1", "(1,2)-(1,4)", "(0,0)-(0,1)", "pass"};
  EXPECT_EQ(columns(format_move_analysis(m)), expected);
  // The header names the same columns ("expected line" is two words).
  EXPECT_EQ(columns(move_analysis_header()).size(), 14u);
  EXPECT_EQ(columns(move_analysis_header())[6], "loss");
  EXPECT_EQ(columns(move_analysis_header())[7], "judgement");
  // Measured within the search, the loss is against the played move's own
  // value; the best move played loses nothing whatever the next search says.
  m.played_cells = 0.75;
  EXPECT_DOUBLE_EQ(m.loss(), 0.5);
  m.played = m.before->best;
  EXPECT_DOUBLE_EQ(m.loss(), 0.0);

  MoveAnalysis pass;  // a forced pass: nothing was searched
  pass.number = 40;
  pass.played = Move::pass();
  pass.before_proved = pass.after_proved = true;
  const std::vector<std::string> forced{"40", "FIRST", "pass", "+0", "+0.00", "+0.00", "0.00", "-", "-", "yes", "-", "-", "-"};
  EXPECT_EQ(columns(format_move_analysis(pass)), forced);

  const std::vector<std::string> lone = columns(format_position_analysis(kFirst, *m.before));
  EXPECT_EQ(lone[1], "FIRST");
  EXPECT_EQ(lone[4], "+1.25");
  EXPECT_EQ(lone[10], "(1,2)-(1,4)");
}

TEST(MoveAnalysis, JudgementsFollowTheThresholds) {
  const LossThresholds t{1, 3, 6};
  EXPECT_EQ(judge_loss(0.99, t), Judgement::kNone);
  EXPECT_EQ(judge_loss(1.0, t), Judgement::kInaccuracy);
  EXPECT_EQ(judge_loss(3.0, t), Judgement::kMistake);
  EXPECT_EQ(judge_loss(7.5, t), Judgement::kBlunder);
  EXPECT_STREQ(judgement_name(Judgement::kMistake), "mistake");
  EXPECT_STREQ(judgement_name(Judgement::kNone), "");
}

GameLog greedy_game(uint64_t seed) { return greedy_game_log(seed); }

AgentFactory depth_agent(int depth) {
  return [depth] {
    return make_agent("alphabeta", {1, {{"depth", std::to_string(depth)}, {"solver", "false"}}});
  };
}

TEST(GameAnalysis, ValuesChainFromMoveToMoveAndEndOnTheFinalMargin) {
  const GameLog log = greedy_game(5);
  ASSERT_GE(log.moves.size(), 10u);
  int progress_calls = 0;
  const GameAnalysis analysis =
      analyze_game(log, depth_agent(2), AnalysisOptions{}, [&](int done, int total) {
        EXPECT_EQ(done, ++progress_calls);
        EXPECT_EQ(total, int(log.moves.size()) + 1);
      });
  EXPECT_EQ(progress_calls, int(log.moves.size()) + 1);
  ASSERT_EQ(analysis.moves.size(), log.moves.size());
  Position pos = log.start;
  for (size_t i = 0; i < analysis.moves.size(); ++i) {
    const MoveAnalysis& a = analysis.moves[i];
    EXPECT_EQ(a.number, int(i) + 1);
    EXPECT_EQ(a.player, log.moves[i].player);
    EXPECT_EQ(a.played, log.moves[i].move);
    // What a fresh bot at the same settings plays there is the best move shown.
    if (a.before) {
      auto bot = depth_agent(2)();
      EXPECT_EQ(bot->choose_move(pos, Clock{}), a.before->best) << "move " << i + 1;
      EXPECT_EQ(a.before->depth, 2);
      EXPECT_DOUBLE_EQ(a.before_cells, a.before->cells);
    }
    const int before = pos.score(a.player);
    pos.apply(a.played);
    EXPECT_EQ(a.gain, pos.score(a.player) - before);
    // After a move is before the next one, from the other side when the
    // other side moves next.
    const double next = i + 1 < analysis.moves.size() ? analysis.moves[i + 1].before_cells : analysis.end.cells;
    const Player next_player = i + 1 < analysis.moves.size() ? analysis.moves[i + 1].player : analysis.end.to_move;
    EXPECT_DOUBLE_EQ(a.after_cells, next_player == a.player ? next : -next);
    EXPECT_DOUBLE_EQ(analysis.first_cells(i), a.player == kFirst ? a.before_cells : -a.before_cells);
  }
  // The game is over: the end is the final margin, proved.
  EXPECT_TRUE(analysis.end.proved);
  EXPECT_FALSE(analysis.end.report.has_value());
  EXPECT_EQ(analysis.first_cells(analysis.moves.size()), log.score_first - log.score_second);
  EXPECT_TRUE(analysis.moves.back().after_proved);
  int marked = 0;
  for (const MoveAnalysis& a : analysis.moves) marked += a.mark > 0;
  EXPECT_LE(marked, 3);
}

// The loss is the best move's value minus the played move's, from one
// search and equally deep: the best move loses exactly 0 and no move loses
// a negative amount (before, two separate searches gave the best move
// 0.1-1.6 cells of loss and some moves a gain). Greedy's moves are often
// not alpha-beta's, so both kinds are checked.
TEST(GameAnalysis, TheBestMoveLosesNothingAndNoMoveLosesANegativeAmount) {
  const GameLog log = greedy_game(5);
  const GameAnalysis analysis = analyze_game(log, depth_agent(3), AnalysisOptions{});
  int best_played = 0, other_played = 0;
  Position pos = log.start;
  for (const MoveAnalysis& a : analysis.moves) {
    EXPECT_GE(a.loss(), 0.0) << "move " << a.number;
    if (a.before) {
      ASSERT_TRUE(a.played_cells.has_value()) << "move " << a.number;
      if (a.played == a.before->best) {
        ++best_played;
        EXPECT_EQ(a.loss(), 0.0) << "move " << a.number;
        EXPECT_DOUBLE_EQ(*a.played_cells, a.before_cells) << "move " << a.number;
      } else {
        ++other_played;
        // The played move's value is its child's search one ply shallower,
        // from the mover's side, as a fresh agent on the same table finds it.
        auto agent = depth_agent(3)();
        agent->choose_move(pos, Clock{});
        EXPECT_DOUBLE_EQ(*agent->move_value(pos, a.played), *a.played_cells) << "move " << a.number;
        EXPECT_DOUBLE_EQ(a.loss(), std::max(0.0, a.before_cells - *a.played_cells)) << "move " << a.number;
      }
      EXPECT_EQ(a.judgement, judge_loss(a.loss(), LossThresholds{})) << "move " << a.number;
    }
    pos.apply(a.played);
  }
  EXPECT_GT(best_played, 0);
  EXPECT_GT(other_played, 0);
  // A position other than the one searched is not answered for.
  auto agent = depth_agent(2)();
  agent->choose_move(log.start, Clock{});
  Position elsewhere = log.start;
  elsewhere.apply(log.moves[0].move);
  EXPECT_FALSE(agent->move_value(elsewhere, log.moves[1].move).has_value());
  // Each player's account adds up.
  for (const Player p : {kFirst, kSecond}) {
    const PlayerLosses l = player_losses(analysis, p);
    double sum = 0;
    int moves = 0;
    for (const MoveAnalysis& a : analysis.moves)
      if (a.player == p) sum += a.loss(), ++moves;
    EXPECT_EQ(l.moves, moves);
    EXPECT_NEAR(l.mean_loss, sum / moves, 1e-12);
    EXPECT_NE(format_player_losses(p, l).find(std::string(player_name(p)) + ": mean loss "), std::string::npos);
  }
}

TEST(GameAnalysis, AForcedPassIsWorthThePositionAfterIt) {
  // Play greedily to the first position where the side to move has no
  // rectangle but the game goes on.
  for (uint64_t seed = 1; seed < 40; ++seed) {
    const GameLog log = greedy_game(seed);
    Position pos = log.start;
    for (const LoggedMove& m : log.moves) {
      if (m.move.is_pass() && !pos.last_move_was_pass()) {
        const PositionValue value = value_position(pos, depth_agent(2));
        EXPECT_FALSE(value.report.has_value());
        Position after = pos;
        after.apply(Move::pass());
        const PositionValue next = value_position(after, depth_agent(2));
        EXPECT_DOUBLE_EQ(value.cells, next.to_move == value.to_move ? next.cells : -next.cells);
        return;
      }
      pos.apply(m.move);
    }
  }
  FAIL() << "no greedy game had a forced pass before its end";
}

TEST(GameAnalysis, AnIllegalMoveIsNamedByNumber) {
  GameLog log = greedy_game(7);
  log.moves[2].move = Move::rect(0, 0, 0, 0);
  try {
    analyze_game(log, depth_agent(1), AnalysisOptions{});
    FAIL() << "an illegal move was analyzed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("move 3 "), std::string::npos) << e.what();
  }
}

TEST(GameAnalysis, AnAgentWithoutReportsIsRefusedByName) {
  const GameLog log = greedy_game(3);
  const AgentFactory greedy = [] { return make_agent("greedy", {}); };
  try {
    analyze_game(log, greedy, AnalysisOptions{});
    FAIL() << "greedy analyzed a game";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("greedy"), std::string::npos) << e.what();
  }
}

// `mushroom bot --analysis`: the bot's own lines agree with its moves, and
// the opponent's move is valued by the searches on either side of it.
TEST(BotSessionAnalysis, LinesFollowTheGameFromTheBotsOwnSearches) {
  std::ostringstream out, err, analysis;
  BotSession session(depth_agent(3), out, err);
  session.set_analysis_stream(&analysis);
  Position pos = random_board(11);
  session.handle_line("READY FIRST");
  session.handle_line(format_init_line(pos));
  std::vector<std::string> played;
  while (!pos.game_over()) {
    if (pos.to_move() == kFirst) {
      session.handle_line("TIME 9000 9000");
      const std::vector<std::string> lines = split_lines(out.str());
      const std::vector<std::string_view> words = split_words(lines.back());
      const Move m = *parse_move_words(words, 0);
      played.push_back(describe_move(m));
      pos.apply(m);
    } else {
      const Move m = greedy_move(pos);
      session.handle_line("OPP " + to_string(m) + " 5");
      played.push_back(describe_move(m));
      pos.apply(m);
    }
  }
  session.handle_line("FINISH");
  const std::vector<std::string> lines = split_lines(analysis.str());
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[0], move_analysis_header());
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 1; i < lines.size(); ++i) rows.push_back(columns(lines[i]));
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<std::string>& row = rows[i];
    const int number = std::stoi(row[0]);
    ASSERT_GE(number, 1);
    ASSERT_LE(number, int(played.size()));
    EXPECT_EQ(row[2], played[number - 1]) << lines[i + 1];
    if (row[1] == "FIRST" && row[9] != "-") {
      EXPECT_EQ(row[9], row[2]) << "the bot played its best move: " << lines[i + 1];
      EXPECT_EQ(row[6], "0.00") << "by its own account its move lost nothing";
    }
    if (row[1] == "SECOND" && i + 1 < rows.size() && rows[i + 1][1] == "FIRST") {
      // The next search of ours gave the value after the opponent's move.
      EXPECT_DOUBLE_EQ(std::stod(row[5]), -std::stod(rows[i + 1][4])) << lines[i + 1];
    }
  }
  EXPECT_EQ(rows.front()[0], "1");  // the bot moves first: every move is there
  EXPECT_GE(rows.size(), played.size() - 2);
}

}  // namespace
}  // namespace mushroom
