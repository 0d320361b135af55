#include "agents/local_match.h"

#include <chrono>

namespace mushroom {

int LocalGameResult::outcome() const {
  if (!forfeit.empty()) return forfeiter == kFirst ? -1 : 1;
  const int diff = final.score(kFirst) - final.score(kSecond);
  return (diff > 0) - (diff < 0);
}

LocalGameResult play_local_game(Agent& first, Agent& second, const Position& start, int bank_ms) {
  LocalGameResult result;
  result.start = start;
  Position pos = start;
  Agent* agents[2] = {&first, &second};
  first.new_game(start, kFirst);
  second.new_game(start, kSecond);
  double spent_ms[2] = {0, 0};
  for (int turn = 0; turn < kMaxTurns && !pos.game_over(); ++turn) {
    const Player p = pos.to_move();
    const auto t0 = std::chrono::steady_clock::now();
    const Clock clock{int(bank_ms - spent_ms[p]), int(bank_ms - spent_ms[1 - p])};
    const Move m = agents[p]->choose_move(pos, clock);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    spent_ms[p] += ms;
    const char* why = nullptr;
    if (!pos.is_legal(m, &why)) {
      result.forfeit = std::string("illegal move ") + to_string(m) + ": " + why;
      result.forfeiter = p;
      break;
    }
    result.moves.push_back({p, m, ms});
    for (Agent* a : agents) a->observe_move(pos, m);
    pos.apply(m);
  }
  result.final = pos;
  return result;
}

}  // namespace mushroom
