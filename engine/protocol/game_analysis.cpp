#include "protocol/game_analysis.h"

#include <stdexcept>
#include <string>

#include "util/text.h"

namespace mushroom {

PositionValue value_position(const Position& pos, const AgentFactory& make_agent, const Clock& clock,
                             const Move* played) {
  PositionValue value;
  value.to_move = pos.to_move();
  if (pos.game_over()) {
    value.cells = pos.margin_for_side_to_move();
    value.proved = true;
    return value;
  }
  std::unique_ptr<Agent> agent = make_agent();
  agent->new_game(pos, pos.to_move());
  const Move move = agent->choose_move(pos, clock);
  if (std::optional<SearchReport> report = agent->last_report()) {
    value.cells = report->cells;
    value.proved = report->proved;
    value.report = std::move(report);
    if (played) value.played_cells = agent->move_value(pos, *played);
    return value;
  }
  if (!move.is_pass())
    throw std::invalid_argument("agent '" + agent->name() + "' keeps no search report: it cannot analyze games");
  // A forced pass changes nothing on the board: the position is worth what
  // the position after it is worth to the passer.
  Position after = pos;
  after.apply(move);
  const PositionValue next = value_position(after, make_agent, clock);
  value.cells = next.to_move == value.to_move ? next.cells : -next.cells;
  value.proved = next.proved;
  if (played) value.played_cells = value.cells;  // the pass was the only move
  return value;
}

double GameAnalysis::first_cells(size_t p) const {
  if (p < moves.size()) return moves[p].player == kFirst ? moves[p].before_cells : -moves[p].before_cells;
  return end.to_move == kFirst ? end.cells : -end.cells;
}

GameAnalysis analyze_game(const GameLog& log, const AgentFactory& make_agent, const AnalysisOptions& options,
                          const std::function<void(int, int)>& progress) {
  GameAnalysis analysis;
  analysis.start = log.start;
  const int total = int(log.moves.size()) + 1;
  std::vector<PositionValue> values;
  Position pos = log.start;
  for (size_t i = 0; i < log.moves.size(); ++i) {
    const LoggedMove& logged = log.moves[i];
    check_logged_move(pos, logged, i);
    values.push_back(value_position(pos, make_agent, {}, &logged.move));
    if (progress) progress(int(i) + 1, total);
    MoveAnalysis move;
    move.number = int(i) + 1;
    move.player = logged.player;
    move.played = logged.move;
    move.gain = cells_taken(pos, logged.move);
    pos.apply(logged.move);
    move.before = values.back().report;
    move.before_cells = values.back().cells;
    move.before_proved = values.back().proved;
    move.played_cells = values.back().played_cells;
    analysis.moves.push_back(std::move(move));
  }
  analysis.end = value_position(pos, make_agent);
  if (progress) progress(total, total);
  values.push_back(analysis.end);
  for (size_t i = 0; i < analysis.moves.size(); ++i) {
    MoveAnalysis& move = analysis.moves[i];
    const PositionValue& next = values[i + 1];
    move.after_cells = next.to_move == move.player ? next.cells : -next.cells;
    move.after_proved = next.proved;
  }
  mark_costliest_moves(analysis.moves, options.marks, options.mark_min_cells);
  for (MoveAnalysis& move : analysis.moves) move.judgement = judge_loss(move.loss(), options.thresholds);
  return analysis;
}

PlayerLosses player_losses(const GameAnalysis& analysis, Player player) {
  PlayerLosses out;
  double sum = 0;
  for (const MoveAnalysis& m : analysis.moves) {
    if (m.player != player) continue;
    ++out.moves;
    sum += m.loss();
    out.inaccuracies += m.judgement == Judgement::kInaccuracy;
    out.mistakes += m.judgement == Judgement::kMistake;
    out.blunders += m.judgement == Judgement::kBlunder;
  }
  out.mean_loss = out.moves ? sum / out.moves : 0;
  return out;
}

std::string format_player_losses(Player player, const PlayerLosses& l, const std::string& name) {
  return std::string(player_name(player)) + (name.empty() ? "" : " (" + name + ")") + ": mean loss " + format_fixed(l.mean_loss, 2) + " cells over " +
         count_of(l.moves, "move") + "; " + count_of(l.inaccuracies, "inaccuracy", "inaccuracies") + ", " +
         count_of(l.mistakes, "mistake") + ", " + count_of(l.blunders, "blunder");
}

}  // namespace mushroom
