#include "arena/arena_report.h"

#include <cmath>
#include <sstream>

#include "arena/program_fingerprint.h"
#include "util/json_report.h"
#include "util/text.h"

namespace mushroom {

namespace {

// The first words of a forfeit reason, without move or status details.
std::string reason_category(const std::string& reason) {
  const size_t cut = reason.find_first_of(":(0123456789-'");
  return std::string(trim(reason.substr(0, cut)));
}

TestFigures test_figures(const MeanSprt& test, const SprtVerdict& verdict, const std::vector<double>& values,
                         bool stops) {
  TestFigures t;
  t.lower = test.lower_bound(), t.upper = test.upper_bound();
  t.verdict = verdict;
  t.stops = stops;
  const double expected = test.expected_pairs(values);
  if (std::isfinite(expected)) {
    t.expected_games = int(std::ceil(2 * expected));
    t.games_to_h1 = int(std::ceil(2 * test.pairs_at_h1(values)));
  }
  return t;
}

std::string tally_text(const SeatTally& t) {
  return std::to_string(t.w) + " W, " + std::to_string(t.d) + " D, " + std::to_string(t.l) + " L";
}

std::string cap_text(double cap) { return format_fixed(cap, cap == std::floor(cap) ? 0 : 2); }

}  // namespace

ArenaFigures arena_figures(const ArenaConfig& config, const ArenaReport& report) {
  ArenaFigures f;
  double margin_sum = 0;
  for (const ArenaGame& g : report.games) {
    (g.a_first ? f.a_first : f.a_second).add(g.a_outcome());
    f.total.add(g.a_outcome());
    margin_sum += game_margin(g, config.margin_cap);
    if (g.forfeiter() >= 0) {
      ArenaFigures::Forfeits& side = f.forfeits[g.forfeiter()];
      const std::string category = reason_category(g.result.log.abort_reason);
      ++side.count;
      ++side.by_reason[category];
      side.example[category] = g.result.log.abort_reason;
    }
  }
  f.games = int(report.games.size());
  f.resumed = report.resumed;
  const auto pairs = pair_scores(report.games);
  f.pairs = int(pairs.size());
  f.points = f.total.w + 0.5 * f.total.d;
  f.score = report.games.empty() ? 0.5 : f.points / report.games.size();
  f.mean_margin = report.games.empty() ? 0.0 : margin_sum / double(report.games.size());
  // The margin per board (both games, sides swapped), with its interval:
  // the sharpest measure when the first mover wins nearly every game; then
  // the margin test's statistic, each game clipped to +-cap.
  f.paired_margin = mean_interval(pair_margins(report.games, config.margin_cap, false));
  const std::vector<double> capped = pair_margins(report.games, config.margin_cap, true);
  f.capped_margin = mean_interval(capped);
  f.elo = estimate_elo(pairs, f.total.w, f.total.l);
  f.pentanomial = pentanomial_counts(pairs);
  f.normalized = normalized_elo(pairs);
  if (config.sprt) f.sprt = test_figures(config.sprt->on_scores(), report.sprt, pairs, !config.stop_on_margin);
  if (config.margin_sprt)
    f.margin_sprt = test_figures(config.margin_sprt->on_margins(), report.margin_sprt, capped, config.stop_on_margin);
  return f;
}

std::string format_report(const ArenaConfig& config, const ArenaReport& report) {
  const ArenaFigures f = arena_figures(config, report);
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "A: " << config.label[0] << " = " << config.command[0] << "\n";
  out << "B: " << config.label[1] << " = " << config.command[1] << "\n";
  out << "games: " << f.games << " (" << f.pairs << " complete pairs"
      << (f.resumed ? ", " + std::to_string(f.resumed) + " read back from games.csv" : "") << "), time bank "
      << config.referee.time_ms << " ms"
      << (config.b_time_ms > 0 ? " for A, " + std::to_string(config.b_time_ms) + " ms for B" : "") << " ("
      << clock_name(config.referee.clock) << " clock), "
      << (config.boards_given.empty() ? "board seed " + std::to_string(config.seed) : "boards " + config.boards_source)
      << "\n";
  // The seat lines name A as the match does ("new moving first: ...").
  const std::string& a = config.label[0];
  const std::string& b = config.label[1];
  out << a << " moving first:  " << tally_text(f.a_first) << "\n";
  out << a << " moving second: " << tally_text(f.a_second) << "\n";
  out << a << " total:         " << tally_text(f.total) << "   score " << f.points << "/" << f.games << " = "
      << 100.0 * f.score << "%\n";
  // Every margin counts a forfeit as a loss by the cap for the side that
  // forfeited (arena/margin.h).
  const std::string cap = cap_text(config.margin_cap);
  out << "mean margin (" << a << " cells - " << b << " cells): " << format_fixed(f.mean_margin, 1) << " over "
      << f.games << " games (a forfeit counts -" << cap << " for the side that forfeited)\n";
  const MeanInterval& pm = f.paired_margin;
  out << "paired margin per game: " << format_fixed(pm.mean, 2) << "  95% interval [" << format_fixed(pm.low, 2) << ", "
      << format_fixed(pm.high, 2) << "] over " << pm.n << " boards\n";
  const MeanInterval& cm = f.capped_margin;
  out << "capped margin per game (each game clipped to +-" << cap << " cells): " << format_signed(cm.mean, 2)
      << "  95% interval [" << format_signed(cm.low, 2) << ", " << format_signed(cm.high, 2) << "] over " << cm.n
      << " boards\n";
  auto elo_text = [](double e) { return format_signed(e, 1); };
  out << "Elo (" << a << " - " << b << "): " << elo_text(f.elo.elo) << "  95% interval [" << elo_text(f.elo.elo_low)
      << ", " << elo_text(f.elo.elo_high) << "] (pentanomial, pairs)   LOS " << 100.0 * f.elo.los << "%\n";
  const auto& penta = f.pentanomial;
  out << "pentanomial (pairs by " << a << "'s score: LL, LD, DD or WL, WD, WW): " << penta[0] << " " << penta[1] << " "
      << penta[2] << " " << penta[3] << " " << penta[4] << "\n";
  const NormalizedElo& nelo = f.normalized;
  if (nelo.valid)
    out << "normalized Elo (" << a << " - " << b << "): " << elo_text(nelo.nelo) << "  95% interval [" << elo_text(nelo.low) << ", "
        << elo_text(nelo.high) << "]\n";
  else
    out << "normalized Elo (" << a << " - " << b << "): n/a (fewer than two pairs, or every pair alike)\n";
  for (int side = 0; side < 2; ++side) {
    out << "forfeits by " << config.label[side] << ": " << f.forfeits[side].count << "\n";
    for (const auto& [category, n] : f.forfeits[side].by_reason)
      out << "  " << n << " x " << category << "  (e.g. " << f.forfeits[side].example.at(category) << ")\n";
  }
  // Both tests on the same games, whenever either ran.
  auto test_lines = [&](const std::string& name, const TestFigures& t, double h1_in_units, const std::string& unit) {
    const SprtVerdict& verdict = t.verdict;
    out << name << ": " << verdict.result
        << (verdict.decided() ? " at " + std::to_string(verdict.games) + " games" : " after " + std::to_string(verdict.games) + " games")
        << " (LLR " << format_fixed(verdict.llr, 2) << ", bounds [" << format_fixed(t.lower, 2) << ", "
        << format_fixed(t.upper, 2) << "])" << (t.stops ? "; it stops the match" : "") << "\n";
    if (t.expected_games)
      out << "  at this mean and spread it decides in about " << *t.expected_games
          << " games (Wald's estimate); a true " << format_signed(h1_in_units, 2) << unit << " at this spread: about "
          << *t.games_to_h1 << " games to H1\n";
  };
  if (config.sprt) {
    const Sprt& t = *config.sprt;
    test_lines("SPRT elo0=" + format_fixed(t.elo0, 2) + " elo1=" + format_fixed(t.elo1, 2) + " alpha=" +
                   format_fixed(t.alpha, 2) + " beta=" + format_fixed(t.beta, 2) + " min-games=" +
                   std::to_string(t.min_games) + " (W/D/L, pentanomial)",
               *f.sprt, t.elo1, " Elo");
  }
  if (config.margin_sprt) {
    const MarginSprt& t = *config.margin_sprt;
    test_lines("margin SPRT h0=" + format_fixed(t.h0, 2) + " h1=" + format_fixed(t.h1, 2) + " cap=" + cap +
                   " alpha=" + format_fixed(t.alpha, 2) + " beta=" + format_fixed(t.beta, 2) + " min-games=" +
                   std::to_string(t.min_games) + " (capped cells a game)",
               *f.margin_sprt, t.h1, " cells a game");
  }
  return out.str();
}

namespace {

JsonReport interval_json(double mean, double low, double high) { return {{"value", mean}, {"low", low}, {"high", high}}; }

JsonReport tally_json(const SeatTally& t) { return {{"w", t.w}, {"d", t.d}, {"l", t.l}}; }

// A test's figures, then its settings (`bounds`).
JsonReport test_json(const TestFigures& t, const JsonReport& bounds) {
  JsonReport j;
  j["verdict"] = t.verdict.result;
  j["games"] = t.verdict.games;  // at the crossing when decided, else all complete pairs' games
  j["llr"] = t.verdict.llr;
  j["lower_bound"] = t.lower;
  j["upper_bound"] = t.upper;
  j["stops_the_match"] = t.stops;
  j["expected_games"] = t.expected_games ? JsonReport(*t.expected_games) : JsonReport(nullptr);
  j["games_to_h1"] = t.games_to_h1 ? JsonReport(*t.games_to_h1) : JsonReport(nullptr);
  for (const auto& [key, value] : bounds.items()) j[key] = value;
  return j;
}

}  // namespace

void write_report_json(const std::string& path, const ArenaConfig& config, const ArenaReport& report) {
  const ArenaFigures f = arena_figures(config, report);
  JsonReport j = json_report_head("mushroom-arena-report", kArenaReportVersion);
  JsonReport settings;
  settings["boards"] = config.boards;
  settings["seed"] = config.boards_given.empty() ? JsonReport(config.seed) : JsonReport(nullptr);
  settings["boards_file"] = config.boards_given.empty() ? JsonReport(nullptr) : JsonReport(config.boards_source);
  settings["board_mode"] = config.board_mode == BoardMode::kUniform ? "uniform" : "sum10";
  settings["time_ms"] = config.referee.time_ms;
  settings["b_time_ms"] = config.b_time_ms > 0 ? config.b_time_ms : config.referee.time_ms;
  settings["clock"] = clock_name(config.referee.clock);
  settings["parallel"] = config.parallel;
  settings["pin"] = config.pin;
  settings["margin_cap"] = config.margin_cap;
  j["settings"] = settings;
  JsonReport programs;
  for (int side = 0; side < 2; ++side)
    programs[side == 0 ? "a" : "b"] = {{"name", config.label[side]},
                                       {"command", config.command[side]},
                                       {"fingerprint", program_fingerprint(config.command[side])}};
  j["programs"] = programs;
  j["games"] = {{"played", f.games}, {"complete_pairs", f.pairs}, {"read_back", f.resumed}};
  j["wdl"] = {{"a_first", tally_json(f.a_first)}, {"a_second", tally_json(f.a_second)}, {"total", tally_json(f.total)}};
  j["score"] = {{"points", f.points}, {"per_game", f.score}};
  j["pentanomial"] = f.pentanomial;
  j["elo"] = {{"logistic", interval_json(f.elo.elo, f.elo.elo_low, f.elo.elo_high)},
              {"normalized", f.normalized.valid
                                 ? interval_json(f.normalized.nelo, f.normalized.low, f.normalized.high)
                                 : JsonReport(nullptr)},
              {"los", f.elo.los}};
  JsonReport paired = interval_json(f.paired_margin.mean, f.paired_margin.low, f.paired_margin.high);
  paired["boards"] = f.paired_margin.n;
  JsonReport capped = interval_json(f.capped_margin.mean, f.capped_margin.low, f.capped_margin.high);
  capped["boards"] = f.capped_margin.n;
  capped["cap"] = config.margin_cap;
  j["margin"] = {{"mean", f.mean_margin}, {"paired", paired}, {"capped", capped}};
  JsonReport forfeits;
  for (int side = 0; side < 2; ++side)
    forfeits[side == 0 ? "a" : "b"] = {{"count", f.forfeits[side].count}, {"by_reason", f.forfeits[side].by_reason}};
  j["forfeits"] = forfeits;
  JsonReport sprt;
  const std::optional<Sprt>& wdl = config.sprt;
  const std::optional<MarginSprt>& margin = config.margin_sprt;
  sprt["wdl"] = wdl ? test_json(*f.sprt, {{"elo0", wdl->elo0}, {"elo1", wdl->elo1}, {"alpha", wdl->alpha},
                                          {"beta", wdl->beta}, {"min_games", wdl->min_games}})
                    : JsonReport(nullptr);
  sprt["margin"] = margin ? test_json(*f.margin_sprt, {{"h0", margin->h0}, {"h1", margin->h1}, {"alpha", margin->alpha},
                                                       {"beta", margin->beta}, {"min_games", margin->min_games}})
                          : JsonReport(nullptr);
  j["sprt"] = sprt;
  write_json_report(path, j);
}

}  // namespace mushroom
