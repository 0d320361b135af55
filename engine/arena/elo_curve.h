// The Elo curve of the shipped evaluations (arena/shipped_record.h): one
// point per shipped evaluation, each chained to the one before by the match
// that shipped it. `mushroom elo-curve` prints it and draws its page.
#pragma once
#include <string>
#include <vector>

#include "arena/shipped_record.h"
#include "arena/stats.h"

namespace mushroom {

struct EloCurvePoint {
  std::string name;
  bool anchor = false;  // the first entry: Elo 0 by definition
  int games = 0, pairs = 0;
  EloEstimate match;                  // its match's Elo against the point before, with its 95% interval
  double llr = 0;                     // its match's SPRT log-likelihood ratio
  double elo = 0, low = 0, high = 0;  // chained to the anchor, with its 95% interval
};

// How the points are chained, in words, for the table and the page.
extern const char* const kEloCurveMethod;

// One point per entry, in order. A point's Elo is the point before plus its
// match's Elo (estimate_elo on the match's pentanomial pairs). The matches
// are independent, so their variances add: each side of the chained 95%
// interval is the root of the sum of the squares of that side's half-width
// in every match so far (the intervals are not symmetric in Elo).
std::vector<EloCurvePoint> chain_elo_curve(const std::vector<ShippedEvaluation>& record);

// The table `mushroom elo-curve` prints: number, name, date shipped, match,
// games, pentanomial, the match's Elo and the chained Elo, each [95%].
std::string format_elo_curve_table(const std::vector<ShippedEvaluation>& record,
                                   const std::vector<EloCurvePoint>& curve);

// "SPRT(0, 15) H1, LLR 3.11": a match's test as the table and the page say it.
std::string sprt_text(const ShippedMatch& match, double llr);
// "+17.8 [+4.0, +31.8]"
std::string elo_interval_text(double elo, double low, double high);

}  // namespace mushroom
