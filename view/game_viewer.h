// `mushroom view`: one game log (arena, self-play or the official tool's
// format; protocol/game_log.h) as one self-contained HTML page: the board
// with its digits, owners in colour, the last rectangle outlined, score
// bars, the move list with times, step/back/play controls and arrow keys,
// for self-play logs the search's value and top candidates per move, and
// for analyzed games (`mushroom analyze --out`) an evaluation graph.
#pragma once
#include <string>

#include "protocol/game_analysis.h"
#include "protocol/game_log.h"

namespace mushroom::view {

struct ViewerOptions {
  std::string title = "mushroom game";
  std::string first_name = "FIRST";
  std::string second_name = "SECOND";
};

// Replays the log (every move is checked; an illegal one throws
// std::invalid_argument naming the move number) and returns the page. With
// an analysis of the same game (`mushroom analyze`), the page adds its
// evaluation graph, the costliest moves (clickable) and, before each move,
// the bot's value, best move and expected line.
std::string game_viewer_html(const GameLog& log, const ViewerOptions& options,
                             const GameAnalysis* analysis = nullptr);

// Reads LOG_PATH and writes the page to OUT_PATH atomically.
void write_game_viewer(const std::string& log_path, const std::string& out_path, const ViewerOptions& options);

}  // namespace mushroom::view
