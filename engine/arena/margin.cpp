#include "arena/margin.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "arena/arena.h"
#include "util/text.h"

namespace mushroom {

double game_margin(const ArenaGame& game, double cap) {
  switch (game.forfeiter()) {
    case 0: return -cap;  // A forfeited
    case 1: return cap;
    default: return game.a_margin();
  }
}

double capped_game_margin(const ArenaGame& game, double cap) {
  return std::clamp(game_margin(game, cap), -cap, cap);
}

std::vector<double> pair_margins(const std::vector<ArenaGame>& games, double cap, bool capped) {
  std::map<int, std::vector<double>> by_board;
  for (const ArenaGame& g : games) by_board[g.board].push_back(capped ? capped_game_margin(g, cap) : game_margin(g, cap));
  std::vector<double> out;
  for (const auto& [board, margins] : by_board)
    if (margins.size() == 2) out.push_back(0.5 * (margins[0] + margins[1]));
  return out;
}

void check_margin_cap(double cap) {
  if (!(cap > 0 && cap <= kMaxMarginCap))
    throw std::invalid_argument("--margin-cap must be in (0, 170] cells, got " + format_fixed(cap, 2));
}

void check_margin_sprt(const MarginSprt& test, double cap) {
  check_margin_cap(cap);
  for (const double bound : {test.h0, test.h1})
    if (!(bound >= -cap && bound <= cap))
      throw std::invalid_argument("--sprt-margin: the bound " + format_fixed(bound, 2) +
                                  " lies outside [-cap, +cap] = [" + format_fixed(-cap, 2) + ", " +
                                  format_fixed(cap, 2) + "] (--margin-cap): no capped mean can reach it");
  if (!(test.h1 > test.h0))
    throw std::invalid_argument("--sprt-margin needs H0 < H1, got " + format_fixed(test.h0, 2) + "," +
                                format_fixed(test.h1, 2));
  if (!(test.alpha > 0 && test.alpha < 0.5 && test.beta > 0 && test.beta < 0.5))
    throw std::invalid_argument("--sprt-alpha and --sprt-beta must be in (0, 0.5)");
  if (test.min_games < 0)
    throw std::invalid_argument("--margin-min-games must be at least 0, got " + std::to_string(test.min_games));
}

MarginSprt parse_margin_bounds(const std::string& text) {
  MarginSprt test;
  const size_t comma = text.find(',');
  size_t used0 = 0, used1 = 0;
  try {
    if (comma == std::string::npos) throw std::invalid_argument("");
    const std::string first = text.substr(0, comma), second = text.substr(comma + 1);
    test.h0 = std::stod(first, &used0);
    test.h1 = std::stod(second, &used1);
    if (used0 != first.size() || used1 != second.size()) throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw std::invalid_argument("--sprt-margin must be 'H0,H1' in cells a game (e.g. 0,0.1), got '" + text + "'");
  }
  return test;
}

}  // namespace mushroom
