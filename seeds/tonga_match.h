// One PseudoTonga game of our agent against the server, with the seed's
// rules for failures: an invalid move, a crash (exception) or running out of
// the game's time gets the server's colour put on every empty square. Our
// agent's time is the CPU time of its thread, so a busy machine does not
// change the result.
#pragma once
#include <cstdint>
#include <string>

#include "seeds/tonga_agent.h"

namespace mushroom::tonga {

struct TongaGameResult {
  int n = 0;
  bool we_started = false;
  int64_t ours = 0, server = 0;
  std::string penalty;     // why the board was filled for the server, or ""
  double our_ms = 0;       // CPU time our agent used (its thread's)
  int64_t points() const { return ours - server; }
};

TongaGameResult play_tonga_game(int n, bool we_start, uint64_t seed, const TongaAgentConfig& agent, double time_ms);

// sum of sign(x) * sqrt(|x|): the seed's overall score.
double signed_sqrt(double x);

}  // namespace mushroom::tonga
