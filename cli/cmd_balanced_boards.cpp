#include <iostream>

#include "arena/balanced_boards.h"
#include "arena/boards_file.h"
#include "cli/command.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_balanced_boards(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom balanced-boards",
      "Write a boards file (the arena's and the ladder's --boards-file, a run's gate.boards_file) of random "
      "contest boards on which the first seat does not decide the game for our bot. Each candidate board "
      "(uniform digits 1-9, candidate i from --seed as the arena draws board i) is played once by --agent "
      "against itself, each side with a bank of --time-ms; the board is kept when the first seat ends at most "
      "--max-margin cells ahead (by default: the second seat wins or draws). Use --parallel up to the number of "
      "free cores: the agents plan on wall time. Progress "
      "goes to stderr; --trials keeps every candidate's result, and running again with the same file resumes. "
      "How the committed bench/balanced-boards.txt was made and measured: bench/README.md.");
  opts.add_options()("out", "the boards file to write", cxxopts::value<std::string>())(
      "count", "balanced boards to write", cxxopts::value<int>()->default_value("1000"))(
      "agent", "the self-play agent, NAME[:key=value,...] [default: the contest bot, alphabeta:eval=models/eval.bin,probcut=models/eval.probcut]",
      cxxopts::value<std::string>())(
      "time-ms", "each side's time bank in the self-play game", cxxopts::value<int>()->default_value("1000"))(
      "max-margin", "keep a board when the first seat's cells minus the second's is at most this",
      cxxopts::value<int>()->default_value("0"))(
      "seed", "candidate boards' seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "parallel", "self-play games at once", cxxopts::value<int>()->default_value("1"))(
      "max-candidates", "give up after this many candidates", cxxopts::value<int>()->default_value("1000000"))(
      "trials", "CSV of every candidate's self-play result (index, board seed, cells, moves); resumes from it",
      cxxopts::value<std::string>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string out = required(args, "out");
  BalancedBoardsConfig config;
  config.agent = args.count("agent")
                     ? parse_agent_spec(args["agent"].as<std::string>())
                     : contest_bot_spec();
  config.time_ms = args["time-ms"].as<int>();
  config.count = args["count"].as<int>();
  config.max_margin = args["max-margin"].as<int>();
  config.seed = args["seed"].as<uint64_t>();
  config.parallel = args["parallel"].as<int>();
  config.max_candidates = args["max-candidates"].as<int>();
  if (config.max_candidates < 1) throw std::invalid_argument("--max-candidates must be at least 1");
  if (args.count("trials")) config.trials_path = args["trials"].as<std::string>();
  const BalancedBoards found = find_balanced_boards(config, std::cerr);
  write_file_atomic(out, format_boards_file(found.boards));
  std::cout << "wrote " << found.boards.size() << " balanced boards to " << out << " (" << found.trials.size()
            << " candidates, first seat at most " << config.max_margin << " cells ahead in "
            << format_agent_spec(config.agent) << " self-play at " << config.time_ms << " ms)" << std::endl;
  return 0;
}

}  // namespace mushroom::cli
