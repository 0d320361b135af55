#include <iostream>
#include <iterator>

#include "cli/command.h"
#include "seeds/blockgame_judge.h"
#include "seeds/chess_grundy.h"
#include "seeds/digits_square_board.h"

namespace mushroom::cli {

int cmd_solve(int argc, char** argv) {
  cxxopts::Options opts("mushroom solve",
                        "Exact solvers that read stdin and write stdout in the original judges' formats:\n"
                        "  blockgame            seed 003 (Algospot BLOCKGAME): WINNING / LOSING per board\n"
                        "  digits-square-board  seed 001 (HackerRank): First / Second per case\n"
                        "  chess-grundy         seed 004 (BOJ 16880; --palace-only for BOJ 16879): koosaga / "
                        "cubelover");
  opts.add_options()("game", "blockgame | digits-square-board | chess-grundy", cxxopts::value<std::string>())(
      "palace-only", "chess-grundy: BOJ 16879 input (N, then 'x y' palaces)")("h,help", "show this help");
  opts.parse_positional({"game"});
  opts.positional_help("GAME");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string game = required(args, "game");
  std::ios::sync_with_stdio(false);
  const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  const bool palace_only = args.count("palace-only") > 0;
  if (palace_only && game != "chess-grundy") throw std::invalid_argument("--palace-only is for chess-grundy");
  if (game == "blockgame") std::cout << blockgame::solve_judge_input(input);
  else if (game == "digits-square-board") std::cout << digits_square_board::solve_judge_input(input);
  else if (game == "chess-grundy") std::cout << chess_grundy::solve_judge_input(input, palace_only);
  else throw std::invalid_argument("unknown game '" + game + "' (known: blockgame, digits-square-board, chess-grundy)");
  std::cout.flush();
  return 0;
}

}  // namespace mushroom::cli
