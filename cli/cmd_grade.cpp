// `mushroom grade blockgame`: a blockgame net graded by the exact solver.
#include <algorithm>
#include <cstdio>

#include "cli/command.h"
#include "nn/model_file.h"
#include "run/blockgame_grade.h"

namespace mushroom::cli {

int cmd_grade(int argc, char** argv) {
  cxxopts::Options opts("mushroom grade",
                        "Grade a net of a solved game against its exact solver. `mushroom grade blockgame --model "
                        "FILE` samples --positions positions reachable in play (random playouts from the empty board, "
                        "never the empty board itself, from a seed apart from self-play's) and reports: the chance a "
                        "uniformly random move wins, the share of won positions where the raw policy's top move "
                        "wins, the same for MCTS with the net at --sims simulations, and the value head's accuracy "
                        "on won/lost labels. The last line repeats the figures as key=value pairs.");
  opts.add_options()("game", "the game: blockgame", cxxopts::value<std::string>())(
      "model", "model file (a blockgame net, e.g. runs/blockgame/models/gen-0010.h5)", cxxopts::value<std::string>())(
      "positions", "positions to grade", cxxopts::value<int>()->default_value("2000"))(
      "sims", "MCTS simulations per position (0: skip MCTS)", cxxopts::value<int>()->default_value("64"))(
      "seed", "position seed (default: the held-out grading seed)", cxxopts::value<uint64_t>())(
      "device", "cpu, cuda or cuda:N", cxxopts::value<std::string>()->default_value("cpu"))(
      "cpuct", "the search's PUCT exploration constant", cxxopts::value<double>()->default_value("1.25"))(
      "gumbel-k", "0: PUCT at the root; K: a Gumbel root over the K likeliest moves (no noise), sequential halving",
      cxxopts::value<int>()->default_value("0"))(
      "h,help", "show this help");
  opts.parse_positional({"game"});
  opts.positional_help("GAME");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string game = required(args, "game");
  if (game != "blockgame") throw std::invalid_argument("grade: unknown game '" + game + "' (the solved game is blockgame)");
  const int positions = args["positions"].as<int>(), sims = args["sims"].as<int>();
  if (positions < 1) throw std::invalid_argument("--positions must be positive");
  if (sims < 0) throw std::invalid_argument("--sims must not be negative");
  MctsConfig search = run::blockgame_grading_search();
  search.c_puct = args["cpuct"].as<double>();
  const int gumbel_k = args["gumbel-k"].as<int>();
  if (!(search.c_puct > 0 && search.c_puct <= 100)) throw std::invalid_argument("--cpuct must be in (0, 100]");
  if (gumbel_k < 0 || gumbel_k > 1024) throw std::invalid_argument("--gumbel-k must be in 0..1024");
  search.gumbel = gumbel_k > 0;
  search.gumbel_k = std::max(1, gumbel_k);
  search.gumbel_noise = false;
  const nn::Model model = nn::load_model(required(args, "model"));
  const uint64_t seed = args.count("seed") ? args["seed"].as<uint64_t>() : run::kBlockgameGradingSeed;
  blockgame::Solver solver;
  const auto sample = run::blockgame_grading_positions(positions, seed, solver);
  const run::GradeReport r = run::grade_blockgame(model, sample, sims, solver, args["device"].as<std::string>(), search);
  std::printf("%s", run::format_grade_report(r).c_str());
  std::printf("grade: positions=%d won=%d sims=%d random=%.4f policy=%.4f mcts=%.4f value=%.4f\n", r.positions, r.won,
              r.sims, r.random_accuracy, r.policy_accuracy, r.mcts_accuracy, r.value_accuracy);
  return 0;
}

}  // namespace mushroom::cli
