#include "view/game_viewer.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "mushroom/move.h"
#include "util/text.h"
#include "view/html.h"
#include "view/viewer_page.h"

namespace mushroom::view {

namespace {

using json = nlohmann::json;

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

json move_json(const Move& m) {
  if (m.is_pass()) return nullptr;
  return json::array({m.r1, m.c1, m.r2, m.c2});
}

json frame_json(const Position& pos) {
  return {{"owners", owners_of(pos)}, {"digits", digits_of(pos)}, {"score", {pos.score(kFirst), pos.score(kSecond)}}};
}

// Cells and search values are shown rounded; the page needs no more digits.
double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}
double cells_json(double cells) { return rounded(cells, 2); }

json line_json(const std::vector<Move>& moves) {
  json out = json::array();
  for (const Move& m : moves) out.push_back(move_json(m));
  return out;
}

json move_analysis_json(const MoveAnalysis& a) {
  json out = {{"before", cells_json(a.before_cells)}, {"after", cells_json(a.after_cells)},
              {"loss", cells_json(a.loss())},         {"mark", a.mark},
              {"proved", a.before_proved}};
  if (a.played_cells) out["played"] = cells_json(*a.played_cells);
  if (a.judgement != Judgement::kNone) out["judgement"] = judgement_name(a.judgement);
  if (a.before) {
    out["depth"] = a.before->depth;
    out["best"] = move_json(a.before->best);
    out["pv"] = line_json(a.before->pv);
  }
  return out;
}

// The evaluation graph's points (FIRST's side, one per position) and the
// end position's value.
json analysis_json(const GameAnalysis& analysis) {
  json points = json::array();
  for (size_t p = 0; p <= analysis.moves.size(); ++p) points.push_back(cells_json(analysis.first_cells(p)));
  json end = {{"player", int(analysis.end.to_move)},
              {"cells", cells_json(analysis.end.cells)},
              {"proved", analysis.end.proved}};
  if (analysis.end.report) {
    const SearchReport& r = *analysis.end.report;
    end["depth"] = r.depth;
    end["best"] = move_json(r.best);
    end["pv"] = line_json(r.pv);
  }
  return {{"points", points}, {"end", end}};
}

}  // namespace

std::string game_viewer_html(const GameLog& log, const ViewerOptions& options, const GameAnalysis* analysis) {
  if (analysis && analysis->moves.size() != log.moves.size())
    throw std::invalid_argument("the analysis has " + std::to_string(analysis->moves.size()) +
                                " moves but the log has " + std::to_string(log.moves.size()));
  Position pos = log.start;
  json frames = json::array({frame_json(pos)});
  json moves = json::array();
  for (size_t i = 0; i < log.moves.size(); ++i) {
    const LoggedMove& m = log.moves[i];
    check_logged_move(pos, m, i);
    const int gain = cells_taken(pos, m.move);
    pos.apply(m.move);
    json move = {{"player", int(m.player)}, {"move", move_json(m.move)}, {"ms", m.ms}, {"gain", gain}};
    if (m.search) {
      json candidates = json::array();
      for (const SearchCandidate& c : m.search->candidates)
        candidates.push_back({{"move", move_json(c.move)}, {"visits", c.visits}, {"q", rounded(c.q, 4)}});
      move["search"] = {{"value", rounded(m.search->value, 4)}, {"candidates", candidates}};
    }
    if (analysis) move["analysis"] = move_analysis_json(analysis->moves[i]);
    moves.push_back(std::move(move));
    frames.push_back(frame_json(pos));
  }
  std::string result;
  if (log.aborted_by)
    result = std::string(*log.aborted_by == kFirst ? options.first_name : options.second_name) + " forfeited: " +
             log.abort_reason;
  else if (log.finished)
    result = "final score " + std::to_string(log.score_first) + " : " + std::to_string(log.score_second);
  else
    result = "unfinished log";
  json data = {{"title", options.title},
               {"rows", kRows},
               {"cols", kCols},
               {"names", {options.first_name, options.second_name}},
               {"result", result},
               {"frames", frames},
               {"moves", moves}};
  if (analysis) data["analysis"] = analysis_json(*analysis);
  // Text that is not UTF-8 is shown with replacement characters rather than refused.
  return viewer_page(html_escape(options.title), script_safe_json(data.dump(-1, ' ', false, json::error_handler_t::replace)),
                     analysis != nullptr);
}

void write_game_viewer(const std::string& log_path, const std::string& out_path, const ViewerOptions& options) {
  const GameLog log = read_game_log(log_path);
  write_file_atomic(out_path, game_viewer_html(log, options));
}

}  // namespace mushroom::view
