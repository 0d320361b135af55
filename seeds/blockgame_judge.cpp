#include "seeds/blockgame_judge.h"

#include "seeds/judge_input.h"

namespace mushroom::blockgame {

std::string solve_judge_input(std::string_view input) {
  static Solver solver;  // the table is shared across calls
  return solve_judge_input(input, solver);
}

std::string solve_judge_input(std::string_view input, Solver& solver) {
  JudgeInput in(input, "blockgame");
  const int cases = int(in.integer("the number of boards C", 0, 50));
  std::string out;
  for (int i = 0; i < cases; ++i) {
    std::vector<std::string_view> lines;
    for (int r = 0; r < kSize; ++r) lines.push_back(in.line("a board row"));
    uint32_t filled = 0;
    try {
      filled = parse_board(lines);
    } catch (const ParseError& e) {
      in.fail("board " + std::to_string(i + 1) + ": " + e.what());
    }
    out += solver.wins(filled) ? "WINNING\n" : "LOSING\n";
  }
  return out;
}

}  // namespace mushroom::blockgame
