#include "arena/elo_curve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/text.h"

namespace mushroom {

const char* const kEloCurveMethod =
    "Each point is the one before it plus the Elo of the real-clock match that shipped it (pentanomial, over the "
    "match's complete pairs); the first shipped evaluation is the anchor, Elo 0. The matches are independent, so "
    "their variances add: each side of a point's 95% interval is the square root of the sum of the squares of that "
    "side's half-width in every match from the anchor to it. A point is an estimate against the anchor through the "
    "chain, not a match played against it.";

std::vector<EloCurvePoint> chain_elo_curve(const std::vector<ShippedEvaluation>& record) {
  std::vector<EloCurvePoint> curve;
  double elo = 0, down_squares = 0, up_squares = 0;
  for (const ShippedEvaluation& e : record) {
    EloCurvePoint p;
    p.name = e.name;
    p.anchor = !e.match;
    if (e.match) {
      const MatchCounts& c = e.match->counts;
      const std::vector<double> pairs = pair_scores_of(c.pentanomial);
      p.games = c.games;
      p.pairs = int(pairs.size());
      p.match = estimate_elo(pairs, c.first.wins + c.second.wins, c.first.losses + c.second.losses);
      p.llr = Sprt{e.match->sprt_elo0, e.match->sprt_elo1, e.match->sprt_alpha, e.match->sprt_beta}.llr(pairs);
      elo += p.match.elo;
      down_squares += std::pow(p.match.elo - p.match.elo_low, 2);
      up_squares += std::pow(p.match.elo_high - p.match.elo, 2);
    }
    p.elo = elo;
    p.low = elo - std::sqrt(down_squares);
    p.high = elo + std::sqrt(up_squares);
    curve.push_back(p);
  }
  return curve;
}

namespace {

std::string number_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

}  // namespace

std::string sprt_text(const ShippedMatch& match, double llr) {
  return "SPRT(" + number_text(match.sprt_elo0) + ", " + number_text(match.sprt_elo1) + ") " + match.verdict +
         ", LLR " + format_fixed(llr, 2);
}

std::string elo_interval_text(double elo, double low, double high) {
  return format_signed(elo, 1) + " [" + format_signed(low, 1) + ", " + format_signed(high, 1) + "]";
}

std::string format_elo_curve_table(const std::vector<ShippedEvaluation>& record,
                                   const std::vector<EloCurvePoint>& curve) {
  std::vector<std::vector<std::string>> rows = {
      {"#", "evaluation", "shipped", "match", "games", "pentanomial", "match Elo [95%]", "Elo [95%], chained"}};
  for (size_t i = 0; i < curve.size() && i < record.size(); ++i) {
    const EloCurvePoint& p = curve[i];
    const ShippedEvaluation& e = record[i];
    std::vector<std::string> row = {std::to_string(i), e.name, e.date};
    if (e.match) {
      const auto& pen = e.match->counts.pentanomial;
      row.push_back("against " + e.match->against + ", " + sprt_text(*e.match, p.llr));
      row.push_back(std::to_string(p.games));
      row.push_back(std::to_string(pen[0]) + " " + std::to_string(pen[1]) + " " + std::to_string(pen[2]) + " " +
                    std::to_string(pen[3]) + " " + std::to_string(pen[4]));
      row.push_back(elo_interval_text(p.match.elo, p.match.elo_low, p.match.elo_high));
      row.push_back(elo_interval_text(p.elo, p.low, p.high));
    } else {
      row.insert(row.end(), {"the anchor", "-", "-", "-", format_signed(0, 1) + " (anchor)"});
    }
    rows.push_back(row);
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (size_t k = 0; k < row.size(); ++k) width[k] = std::max(width[k], row[k].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t k = 0; k < row.size(); ++k)
      line += row[k] + (k + 1 < row.size() ? std::string(width[k] + 2 - row[k].size(), ' ') : "");
    out += line + "\n";
  }
  return out;
}

}  // namespace mushroom
