#include <iostream>

#include "agents/local_match.h"
#include "cli/command.h"
#include "mushroom/board_gen.h"
#include "mushroom/position_io.h"
#include "util/log_level.h"

namespace mushroom::cli {

int cmd_play(int argc, char** argv) {
  cxxopts::Options opts("mushroom play",
                        "Play one game between two in-process agents on a seeded random board and print it "
                        "move by move.\n\nAgent options (--first-opt/--second-opt key=value), each with its "
                        "default, range and help:\n" +
                            agent_options_help());
  opts.add_options()("first", "agent moving first, NAME[:key=value,...] (default: greedy); NAME one of " +
                                agent_names(),
                     cxxopts::value<std::string>())(
      "second", "agent moving second, NAME[:key=value,...] (default: random)", cxxopts::value<std::string>())(
      "first-opt", "old spelling: an option key=value of the first agent; write --first NAME:key=value",
      cxxopts::value<std::vector<std::string>>())(
      "second-opt", "old spelling: an option key=value of the second agent; write --second NAME:key=value",
      cxxopts::value<std::vector<std::string>>())(
      "seed", "board and agent seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "board-mode", "uniform | sum10 (total a multiple of 10)",
      cxxopts::value<std::string>()->default_value("uniform"))(
      "position", "start from this position file instead of a random board", cxxopts::value<std::string>())(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const uint64_t seed = args["seed"].as<uint64_t>();
  const std::string mode = args["board-mode"].as<std::string>();
  if (mode != "uniform" && mode != "sum10")
    throw std::invalid_argument("--board-mode must be uniform or sum10, got '" + mode + "'");
  const Position start = args.count("position") ? load_position_file(args["position"].as<std::string>())
                                                : random_board(seed, mode == "sum10" ? BoardMode::kSumMultipleOf10
                                                                                     : BoardMode::kUniform);
  AgentOptions first_opts, second_opts;
  first_opts.seed = seed * 2 + 1;
  second_opts.seed = seed * 2 + 2;
  const AgentSpec first_spec = agent_spec_option(args, "play", "first", "first-opt", AgentSpec{"greedy", {}});
  const AgentSpec second_spec = agent_spec_option(args, "play", "second", "second-opt", AgentSpec{"random", {}});
  first_opts.values = first_spec.options;
  second_opts.values = second_spec.options;
  auto first = make_agent(first_spec.name, first_opts);
  auto second = make_agent(second_spec.name, second_opts);
  // --quiet (every command's, cli/output_options.cpp): the result line alone.
  const bool quiet = mushroom::quiet();

  const LocalGameResult result = play_local_game(*first, *second, start);
  if (!quiet) {
    std::cout << "first: " << first->name() << "   second: " << second->name() << "   board seed " << seed
              << "\n\n"
              << pretty_board(start) << "\n";
    Position pos = start;
    int turn = 0;
    for (const PlayedMove& pm : result.moves) {
      pos.apply(pm.move);
      std::cout << "turn " << ++turn << ": " << (pm.player == kFirst ? "first " : "second") << " "
                << (pm.move.is_pass() ? std::string("pass") : to_string(pm.move) + "  (area " +
                                                                  std::to_string(pm.move.area()) + ")")
                << "   score " << pos.score(kFirst) << "-" << pos.score(kSecond) << "\n";
    }
    std::cout << "\n" << pretty_board(result.final);
  }
  if (!result.forfeit.empty())
    std::cout << (result.forfeiter == kFirst ? "first" : "second") << " forfeits: " << result.forfeit << "\n";
  const int outcome = result.outcome();
  std::cout << "result: " << (outcome > 0 ? "first (" + first->name() + ") wins"
                              : outcome < 0 ? "second (" + second->name() + ") wins"
                                            : std::string("draw"))
            << " " << result.final.score(kFirst) << "-" << result.final.score(kSecond) << " in "
            << result.moves.size() << " turns" << std::endl;
  return 0;
}

}  // namespace mushroom::cli
