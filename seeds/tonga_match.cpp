#include "seeds/tonga_match.h"

#include <cmath>

#include "seeds/tonga_server.h"
#include "util/cpu_clock.h"

namespace mushroom::tonga {

double signed_sqrt(double x) { return x < 0 ? -std::sqrt(-x) : std::sqrt(x); }

TongaGameResult play_tonga_game(int n, bool we_start, uint64_t seed, const TongaAgentConfig& agent_config, double time_ms) {
  const Geometry g(n);
  const Color us = we_start ? kBlack : kWhite;
  TongaServer server(g, other(us), seed);
  TongaAgentConfig config = agent_config;
  config.seed = seed ^ 0xa9e7;
  TongaAgent agent(g, us, config);
  Board board;
  TongaGameResult result;
  result.n = n;
  result.we_started = we_start;
  while (!board.full(g) && result.penalty.empty()) {
    if (board.to_move == us) {
      int cell = -1;
      const double start = thread_cpu_ms();
      try {
        cell = agent.choose(board, time_ms - result.our_ms);
      } catch (const std::exception& e) {
        result.penalty = std::string("agent crashed: ") + e.what();
      }
      result.our_ms += thread_cpu_ms() - start;
      if (!result.penalty.empty()) break;
      if (result.our_ms > time_ms) result.penalty = "timeout";
      else if (cell < 0 || cell >= kMaxCells || !board.empty(g).test(cell)) result.penalty = "invalid move " + std::to_string(cell);
      else board.place(cell);
    } else {
      board.place(server.choose(board));
    }
  }
  if (!result.penalty.empty()) {
    board.stones[other(us)] = board.stones[other(us)] | board.empty(g);
    board.placed = n * n;
  }
  result.ours = tonga_score(g, board.stones[us]);
  result.server = tonga_score(g, board.stones[other(us)]);
  return result;
}

}  // namespace mushroom::tonga
