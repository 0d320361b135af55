#include <chrono>
#include <iostream>

#include "agents/move_analysis.h"
#include "cli/command.h"
#include "endgame/exact_solvers.h"
#include "mushroom/movegen.h"
#include "mushroom/position_io.h"
#include "protocol/game_log.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_solve_endgame(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom solve-endgame",
      "Proves a position's exact final margin for the side to move with the dedicated endgame solver (or, with "
      "--solver alphabeta, alpha-beta's plain exact mode), and prints the "
      "principal variation, the node count and the time, and for the dedicated solver how well it ordered (the "
      "share of cutoffs that came from the first move tried). The last line is exactly margin=<int> best=<r1> <c1> <r2> "
      "<c2> (a move that achieves it; -1 -1 -1 -1 is the pass), or with --wdl result=<win|draw|loss> best=... "
      "(which proves only that). The position file may give the side to move and a pass just played "
      "(mushroom/position_io.h). Exit 1 when the limits stop it before a proof.");
  opts.add_options()("position", "position file", cxxopts::value<std::string>())(
      "wdl", "prove only win, draw or loss (faster than the margin)")(
      "ms", "give up after this many milliseconds (0: no limit)", cxxopts::value<double>()->default_value("0"))(
      "nodes", "give up after this many nodes (0: no limit)", cxxopts::value<uint64_t>()->default_value("0"))(
      "tt-bits", "the transposition table holds 2^N entries of 16 bytes", cxxopts::value<int>()->default_value("22"))(
      "solver", "endgame (the dedicated solver) | alphabeta (alpha-beta's exact mode, the reference)",
      cxxopts::value<std::string>()->default_value("endgame"))(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string path = required(args, "position");
  const double ms = args["ms"].as<double>();
  const int tt_bits = args["tt-bits"].as<int>();
  if (ms < 0) throw std::invalid_argument("--ms must be 0 or more");
  if (tt_bits < 10 || tt_bits > 30) throw std::invalid_argument("--tt-bits must be in 10..30");
  const Position pos = load_position_file(path);
  const bool wdl = args.count("wdl") > 0;
  MoveList list;
  generate_moves(pos, list);
  std::cout << "position: " << pos.mushrooms_left() << " mushrooms left, " << list.size << " rectangles, "
            << player_name(pos.to_move()) << " to move" << (pos.last_move_was_pass() ? ", after a pass" : "") << "\n";

  ExactSolver solver(parse_exact_solver_kind(args["solver"].as<std::string>()), tt_bits);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (ms > 0) deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(int64_t(ms * 1000));
  const auto t0 = std::chrono::steady_clock::now();
  const std::optional<ExactAnswer> answer = solver.solve(pos, wdl, args["nodes"].as<uint64_t>(), deadline);
  const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!answer) {
    std::cout << "not proved within the limits (" << format_fixed(elapsed, 1) << " ms)\n";
    return 1;
  }
  std::string line;
  for (const Move& m : solver.principal_variation(pos, 64)) line += (line.empty() ? "" : " ") + describe_move(m);
  std::cout << "pv: " << (line.empty() ? "-" : line) << "\n"
            << "nodes: " << answer->nodes << " in " << answer->probes << (answer->probes == 1 ? " search" : " searches") << "\n"
            << "time: " << format_fixed(elapsed, 1) << " ms (" << format_fixed(answer->nodes / std::max(elapsed, 1e-3) / 1e3, 2)
            << " M nodes/s)\n";
  if (const std::optional<EndgameSearchStats>& stats = answer->stats) {
    const double first = stats->cutoffs ? 100.0 * stats->first_move_cutoffs / stats->cutoffs : 0;
    std::cout << "ordering: " << stats->cutoffs << " cutoffs, " << format_fixed(first, 2) << "% by the first move tried; "
              << stats->every_move_nodes << " nodes searched every rectangle; table cutoffs " << stats->table_cutoffs
              << ", enhanced transposition cutoffs " << stats->etc_cutoffs << "\n";
  }
  if (wdl)
    std::cout << "result=" << (answer->value > 0 ? "win" : answer->value == 0 ? "draw" : "loss")
              << " best=" << to_string(answer->best) << "\n";
  else
    std::cout << "margin=" << answer->value << " best=" << to_string(answer->best) << "\n";
  return 0;
}

}  // namespace mushroom::cli
