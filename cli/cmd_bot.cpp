#include <iostream>

#include "cli/command.h"
#include "protocol/bot_session.h"

namespace mushroom::cli {

int cmd_bot(int argc, char** argv) {
  cxxopts::Options opts("mushroom bot",
                        "Play one game over the contest protocol on stdin/stdout (READY, INIT, TIME, OPP, "
                        "FINISH). Only OK and moves are printed on stdout; warnings go to stderr. With no arguments it plays "
                        "the contest bot: the nn agent with the default model (models/default.h5), planning each "
                        "move from the 10 s CPU-time bank.\n\nAgent options (--opt key=value), each with its default, "
                        "range and help:\n" +
                            agent_options_help());
  opts.add_options()("agent", "agent: " + agent_names(), cxxopts::value<std::string>()->default_value("nn"))(
      "opt", "agent option key=value (repeatable)", cxxopts::value<std::vector<std::string>>())(
      "model", "model file for the nn agent (same as --opt model=FILE)", cxxopts::value<std::string>())(
      "seed", "agent random seed", cxxopts::value<uint64_t>()->default_value("1"))("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string name = args["agent"].as<std::string>();
  AgentOptions options;
  options.seed = args["seed"].as<uint64_t>();
  read_agent_options(args, "opt", options.values);
  if (args.count("model")) options.values["model"] = args["model"].as<std::string>();
  make_agent(name, options);  // reject unknown agents/options before the game
  std::ios::sync_with_stdio(false);
  BotSession session([&] { return make_agent(name, options); }, std::cout, std::cerr);
  return session.run(std::cin);
}

}  // namespace mushroom::cli
