// `mushroom analyze`: every position of a game searched by the bot, so a
// person can see where the game was lost (agents/move_analysis.h).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "agents/agent.h"
#include "agents/move_analysis.h"
#include "protocol/game_log.h"

namespace mushroom {

// A fresh agent for each position searched: every position gets the search
// a bot that had just started there would make (no table carried over).
using AgentFactory = std::function<std::unique_ptr<Agent>()>;

// The value of one position for its side to move.
struct PositionValue {
  Player to_move = kFirst;
  double cells = 0;
  bool proved = false;                 // exact: the game is over or the solver settled it
  std::optional<SearchReport> report;  // nullopt: the game is over, or the side to move must pass
  // The value of the move asked about (value_position's `played`), from the
  // same search (Agent::move_value); nullopt when none was asked about or
  // the agent cannot say.
  std::optional<double> played_cells;
};

// Over: the final margin. A forced pass: the value after the pass, from the
// passer's side. Otherwise the agent's search (`clock` is what it is told),
// and with `played`, that move's value from the same search.
PositionValue value_position(const Position& pos, const AgentFactory& make_agent, const Clock& clock = {},
                             const Move* played = nullptr);

struct GameAnalysis {
  Position start;
  std::vector<MoveAnalysis> moves;
  PositionValue end;  // the position after the last move

  // The value of the position before move p (p = moves.size(): the end),
  // from FIRST's side: the evaluation graph's points.
  double first_cells(size_t p) const;
};

// One player's account of a game: moves, mean loss, and how many of each
// judgement (agents/move_analysis.h).
struct PlayerLosses {
  int moves = 0;
  double mean_loss = 0;
  int inaccuracies = 0, mistakes = 0, blunders = 0;
};
PlayerLosses player_losses(const GameAnalysis& analysis, Player player);
// "FIRST: mean loss 0.42 cells over 40 moves; 2 inaccuracies, 1 mistake, 0 blunders",
// with the program's name beside the seat when given ("FIRST (eval3): ...").
std::string format_player_losses(Player player, const PlayerLosses& losses, const std::string& name = "");

struct AnalysisOptions {
  int marks = 3;              // moves marked as the costliest...
  double mark_min_cells = 1;  // ...each losing at least this much
  LossThresholds thresholds;  // inaccuracy, mistake, blunder (agents/move_analysis.h)
};

// Searches the log's positions in order; progress(done, total) after each.
// Throws std::invalid_argument naming the first illegal move.
GameAnalysis analyze_game(const GameLog& log, const AgentFactory& make_agent, const AnalysisOptions& options,
                          const std::function<void(int, int)>& progress = {});

}  // namespace mushroom
