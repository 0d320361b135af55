#include "view/game_viewer.h"

#include <stdexcept>

#include "mushroom/move.h"
#include "util/text.h"
#include "view/html.h"
#include "view/viewer_page.h"

namespace mushroom::view {

namespace {

// One character per cell, row by row: '.' none, 'a' FIRST, 'b' SECOND.
std::string owners_of(const Position& pos) {
  std::string out;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const Owner o = pos.owner(r, c);
      out += o == Owner::kNone ? '.' : o == Owner::kFirst ? 'a' : 'b';
    }
  return out;
}

std::string digits_of(const Position& pos) {
  std::string out;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) out += char('0' + pos.digit(r, c));
  return out;
}

std::string move_json(const Move& m) {
  if (m.is_pass()) return "null";
  return "[" + std::to_string(m.r1) + "," + std::to_string(m.c1) + "," + std::to_string(m.r2) + "," +
         std::to_string(m.c2) + "]";
}

std::string frame_json(const Position& pos) {
  return "{\"owners\":" + json_string(owners_of(pos)) + ",\"digits\":" + json_string(digits_of(pos)) +
         ",\"score\":[" + std::to_string(pos.score(kFirst)) + "," + std::to_string(pos.score(kSecond)) + "]}";
}

std::string cells_json(double cells) { return format_fixed(cells, 2); }

std::string move_analysis_json(const MoveAnalysis& a) {
  std::string out = "{\"before\":" + cells_json(a.before_cells) + ",\"after\":" + cells_json(a.after_cells) +
                    ",\"loss\":" + cells_json(a.loss()) + ",\"mark\":" + std::to_string(a.mark) +
                    ",\"proved\":" + (a.before_proved ? "true" : "false");
  if (a.before) {
    out += ",\"depth\":" + std::to_string(a.before->depth) + ",\"best\":" + move_json(a.before->best) + ",\"pv\":[";
    for (size_t k = 0; k < a.before->pv.size(); ++k) out += (k ? "," : "") + move_json(a.before->pv[k]);
    out += "]";
  }
  return out + "}";
}

// The evaluation graph's points (FIRST's side, one per position) and the
// end position's value.
std::string analysis_json(const GameAnalysis& analysis) {
  std::string points = "[";
  for (size_t p = 0; p <= analysis.moves.size(); ++p) points += (p ? "," : "") + cells_json(analysis.first_cells(p));
  std::string out = "{\"points\":" + points + "],\"end\":{\"player\":" + std::to_string(int(analysis.end.to_move)) +
                    ",\"cells\":" + cells_json(analysis.end.cells) +
                    ",\"proved\":" + (analysis.end.proved ? "true" : "false");
  if (analysis.end.report) {
    const SearchReport& r = *analysis.end.report;
    out += ",\"depth\":" + std::to_string(r.depth) + ",\"best\":" + move_json(r.best) + ",\"pv\":[";
    for (size_t k = 0; k < r.pv.size(); ++k) out += (k ? "," : "") + move_json(r.pv[k]);
    out += "]";
  }
  return out + "}}";
}

}  // namespace

std::string game_viewer_html(const GameLog& log, const ViewerOptions& options, const GameAnalysis* analysis) {
  if (analysis && analysis->moves.size() != log.moves.size())
    throw std::invalid_argument("the analysis has " + std::to_string(analysis->moves.size()) +
                                " moves but the log has " + std::to_string(log.moves.size()));
  Position pos = log.start;
  std::string frames = "[" + frame_json(pos);
  std::string moves = "[";
  for (size_t i = 0; i < log.moves.size(); ++i) {
    const LoggedMove& m = log.moves[i];
    check_logged_move(pos, m, i);
    const int gain = cells_taken(pos, m.move);
    pos.apply(m.move);
    if (i) moves += ",";
    moves += "{\"player\":" + std::to_string(int(m.player)) + ",\"move\":" + move_json(m.move) +
             ",\"ms\":" + std::to_string(m.ms) + ",\"gain\":" + std::to_string(gain);
    if (m.search) {
      moves += ",\"search\":{\"value\":" + format_fixed(m.search->value, 4) + ",\"candidates\":[";
      for (size_t k = 0; k < m.search->candidates.size(); ++k) {
        const SearchCandidate& c = m.search->candidates[k];
        if (k) moves += ",";
        moves += "{\"move\":" + move_json(c.move) + ",\"visits\":" + std::to_string(c.visits) +
                 ",\"q\":" + format_fixed(c.q, 4) + "}";
      }
      moves += "]}";
    }
    if (analysis) moves += ",\"analysis\":" + move_analysis_json(analysis->moves[i]);
    moves += "}";
    frames += "," + frame_json(pos);
  }
  frames += "]";
  moves += "]";
  std::string result;
  if (log.aborted_by)
    result = std::string(*log.aborted_by == kFirst ? options.first_name : options.second_name) + " forfeited: " +
             log.abort_reason;
  else if (log.finished)
    result = "final score " + std::to_string(log.score_first) + " : " + std::to_string(log.score_second);
  else
    result = "unfinished log";
  const std::string data = "{\"title\":" + json_string(options.title) + ",\"rows\":" + std::to_string(kRows) +
                           ",\"cols\":" + std::to_string(kCols) + ",\"names\":[" + json_string(options.first_name) +
                           "," + json_string(options.second_name) + "],\"result\":" + json_string(result) +
                           ",\"frames\":" + frames + ",\"moves\":" + moves +
                           (analysis ? ",\"analysis\":" + analysis_json(*analysis) : std::string()) + "}";
  return viewer_page(html_escape(options.title), data);
}

void write_game_viewer(const std::string& log_path, const std::string& out_path, const ViewerOptions& options) {
  const GameLog log = parse_game_log(read_file(log_path), log_path);
  write_file_atomic(out_path, game_viewer_html(log, options));
}

}  // namespace mushroom::view
