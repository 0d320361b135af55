// The paired margin: cells a game, A's minus B's, over paired boards, and
// the margin test (issue 99, docs/matches.md "The margin test").
//
// At the real clock the first seat wins most games, so W/D/L sees only the
// few games near the zero line while every game's margin carries
// information. A raw margin would also reward cells that change no result
// (winning won games by more), so the test reads each game's margin clipped
// to +-cap cells. A forfeit counts as a loss by cap cells for the side that
// forfeited, in every margin printed: a forfeit is never dropped or zeroed.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "arena/stats.h"

namespace mushroom {

struct ArenaGame;

constexpr double kDefaultMarginCap = 4;  // cells; --margin-cap
constexpr double kMaxMarginCap = 170;    // the whole board

// A's margin in one game; a forfeit is a loss by `cap` cells for the side
// that forfeited (its recorded cells are 0 for both).
double game_margin(const ArenaGame& game, double cap);
// The same clipped to [-cap, +cap].
double capped_game_margin(const ArenaGame& game, double cap);

// Per complete pair (both games of a board), in board order, the mean of
// its two games' margins: capped ones with `capped`, else raw ones (with
// forfeits still counted as losses by `cap`).
std::vector<double> pair_margins(const std::vector<ArenaGame>& games, double cap, bool capped);

// The margin test: MeanSprt on the pairs' capped margins, H0: mean = h0
// against H1: mean = h1 cells a game.
// The cap is the match's own (ArenaConfig::margin_cap): one cap for every
// margin a report prints.
// min_games: no decision before this many games (complete pairs' games;
// --margin-min-games). At 200, the calibration's error rates at H0 and H1
// are within alpha and beta; with none, H1's false negatives were 6%
// (docs/history/issue-99-the-margin.md, "The calibration").
constexpr int kDefaultMarginMinGames = 200;
struct MarginSprt {
  double h0 = 0, h1 = 0.1, alpha = 0.05, beta = 0.05;
  int min_games = kDefaultMarginMinGames;
  MeanSprt on_margins() const { return MeanSprt{h0, h1, alpha, beta, 0.5, (min_games + 1) / 2}; }
};

// Checks a margin test's settings; throws std::invalid_argument naming the
// option (--sprt-margin, --margin-cap, --sprt-alpha/--sprt-beta,
// --margin-min-games) when the cap is outside (0, 170], a bound lies
// outside [-cap, cap] (no capped mean can reach it), h1 is not above h0 or
// the minimum games is negative.
void check_margin_sprt(const MarginSprt& test, double cap);
void check_margin_cap(double cap);

// "h0,h1" as --sprt-margin spells it; throws naming the option and the text.
MarginSprt parse_margin_bounds(const std::string& text);

}  // namespace mushroom
