#include "agents/move_analysis.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace mushroom {

namespace {

std::string line_text(const std::vector<Move>& line) {
  std::string out;
  for (const Move& m : line) out += (out.empty() ? "" : " ") + describe_move(m);
  return out.empty() ? "-" : out;
}

// The columns after "after": loss, judgement, depth, proved, best, mark, pv.
std::string search_columns(const std::optional<SearchReport>& report, bool proved, const char* loss,
                           const char* judgement, int mark) {
  char buf[180];
  const std::string depth = report ? std::to_string(report->depth) : "-";
  const std::string best = report ? describe_move(report->best) : "-";
  std::snprintf(buf, sizeof buf, "%6s  %-10s  %5s  %-6s  %-15s  %-5s  ", loss, *judgement ? judgement : "-",
                depth.c_str(), proved ? "yes" : "-", best.c_str(), mark ? std::to_string(mark).c_str() : "-");
  return buf + (report ? line_text(report->pv) : std::string("-"));
}

}  // namespace

Judgement judge_loss(double loss, const LossThresholds& t) {
  if (loss >= t.blunder) return Judgement::kBlunder;
  if (loss >= t.mistake) return Judgement::kMistake;
  if (loss >= t.inaccuracy) return Judgement::kInaccuracy;
  return Judgement::kNone;
}

const char* judgement_name(Judgement j) {
  switch (j) {
    case Judgement::kInaccuracy: return "inaccuracy";
    case Judgement::kMistake: return "mistake";
    case Judgement::kBlunder: return "blunder";
    default: return "";
  }
}

double MoveAnalysis::loss() const {
  if (before && played == before->best) return 0;
  return std::max(0.0, before_cells - (played_cells ? *played_cells : after_cells));
}

std::string describe_move(const Move& m) {
  if (m.is_pass()) return "pass";
  return "(" + std::to_string(m.r1) + "," + std::to_string(m.c1) + ")-(" + std::to_string(m.r2) + "," +
         std::to_string(m.c2) + ")";
}

std::string move_analysis_header() {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%4s  %-6s  %-15s  %5s  %7s  %7s  %6s  %-10s  %5s  %-6s  %-15s  %-5s  %s", "#",
                "player", "played", "cells", "before", "after", "loss", "judgement", "depth", "proved", "best", "worst",
                "expected line");
  return buf;
}

std::string format_move_analysis(const MoveAnalysis& move) {
  char head[120], loss[32];
  std::snprintf(head, sizeof head, "%4d  %-6s  %-15s  %+5d  %+7.2f  %+7.2f  ", move.number,
                player_name(move.player), describe_move(move.played).c_str(), move.gain, move.before_cells,
                move.after_cells);
  std::snprintf(loss, sizeof loss, "%.2f", move.loss());
  return head + search_columns(move.before, move.before_proved, loss, judgement_name(move.judgement), move.mark);
}

std::string format_position_analysis(Player to_move, const SearchReport& report) {
  char head[120];
  std::snprintf(head, sizeof head, "%4s  %-6s  %-15s  %5s  %+7.2f  %7s  ", "-", player_name(to_move), "-",
                "-", report.cells, "-");
  return head + search_columns(report, report.proved, "-", "", 0);
}

void mark_costliest_moves(std::vector<MoveAnalysis>& moves, int count, double min_cells) {
  std::vector<size_t> order(moves.size());
  std::iota(order.begin(), order.end(), 0);
  // Stable: of equal losses, the earlier move ranks first.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return moves[a].loss() > moves[b].loss(); });
  for (MoveAnalysis& m : moves) m.mark = 0;
  int rank = 0;
  for (size_t i : order) {
    if (rank >= count || moves[i].loss() < min_cells) break;
    moves[i].mark = ++rank;
  }
}

}  // namespace mushroom
