// Seed 003 (BLOCKGAME) in the judge's format, on the exact solver of
// blockgame/blockgame.h.
#pragma once
#include <string>
#include <string_view>

#include "blockgame/blockgame.h"

namespace mushroom::blockgame {

// The judge's format: C, then C boards of 5 lines; one WINNING or LOSING
// line per board. The first form shares one process-wide solver.
std::string solve_judge_input(std::string_view input);
std::string solve_judge_input(std::string_view input, Solver& solver);

}  // namespace mushroom::blockgame
