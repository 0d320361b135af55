// Where a game was lost: one line per move with the bot's evaluation before
// and after it, in cells of final margin for the side that moved. `mushroom
// analyze` writes these lines for a whole game (protocol/game_analysis.h)
// and `mushroom bot --analysis` for the game it is playing; the viewer draws
// them as an evaluation graph.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "agents/search_report.h"
#include "mushroom/position.h"

namespace mushroom {

// How bad a move's loss is, in cells of final margin (a loss at or above a
// threshold earns its name). The defaults, 1, 3 and 6 cells, are a choice:
// one cell can turn a game, which is won by having more cells. `mushroom
// analyze --inaccuracy/--mistake/--blunder` set them.
struct LossThresholds {
  double inaccuracy = 1.0;
  double mistake = 3.0;
  double blunder = 6.0;
};
enum class Judgement { kNone, kInaccuracy, kMistake, kBlunder };
Judgement judge_loss(double loss, const LossThresholds& thresholds);
// "", "inaccuracy", "mistake", "blunder".
const char* judgement_name(Judgement j);

struct MoveAnalysis {
  int number = 0;  // 1 for the game's first move
  Player player = kFirst;
  Move played;
  int gain = 0;  // cells the move took, stolen ones included
  // The search of the position before the move, from the mover's side;
  // nullopt when nothing searched it: a forced pass, or (bot --analysis) an
  // opponent's move whose position our search had no line for.
  std::optional<SearchReport> before;
  double before_cells = 0;  // the mover's value before the move...
  double after_cells = 0;   // ...and after it, both from the mover's side
  bool before_proved = false;  // exact values: the solver proved them, or the game ended
  bool after_proved = false;
  // The played move's value from the same search as before_cells, as deep
  // as its best move (Agent::move_value); nullopt when the agent cannot say.
  std::optional<double> played_cells;
  int mark = 0;  // 1 for the move that lost the most, 2 for the next...; 0: not marked
  Judgement judgement = Judgement::kNone;

  // Cells the move gave away against the best move of the same search:
  // before_cells - played_cells, 0 when the best move was played and never
  // below 0. Without played_cells (an agent that cannot say), the drop from
  // before_cells to the next position's own search, also never below 0.
  double loss() const;
};

// "(r1,c1)-(r2,c2)", or "pass".
std::string describe_move(const Move& m);

// The column headings of format_move_analysis's lines.
std::string move_analysis_header();
// One line, no newline: number, player, move played and its cells, the
// value before and after it and the loss, its judgement, the search's
// depth, whether the solver proved the position, the best move, the mark
// and the line the search expected.
std::string format_move_analysis(const MoveAnalysis& move);
// The same columns for a lone position (no move played): its value for the
// side to move, depth, proof, best move and expected line.
std::string format_position_analysis(Player to_move, const SearchReport& report);

// Marks the `count` moves with the largest loss, each losing at least
// min_cells, 1 for the largest; clears every other mark.
void mark_costliest_moves(std::vector<MoveAnalysis>& moves, int count, double min_cells);

}  // namespace mushroom
