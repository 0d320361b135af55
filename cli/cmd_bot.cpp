#include <iostream>

#include "cli/command.h"
#include "protocol/bot_session.h"
#include "util/shipped_file.h"

namespace mushroom::cli {

int cmd_bot(int argc, char** argv) {
  cxxopts::Options opts("mushroom bot",
                        "Play one game over the contest protocol on stdin/stdout (READY, INIT, TIME, OPP, "
                        "FINISH). Only OK and moves are printed on stdout; warnings go to stderr. With no --agent it plays "
                        "the contest bot, the strongest by measurement (BENCHMARKS.md): alphabeta with the learned "
                        "evaluation models/eval.bin ($MUSHROOM_EVAL overrides; --opt eval=FILE names another), "
                        "iterative deepening on the 10 s CPU-time bank. --agent alphabeta alone is the hand "
                        "evaluation.\n\nAgent options (--opt key=value), each with its default, "
                        "range and help:\n" +
                            agent_options_help());
  opts.add_options()("agent", "agent: " + agent_names(), cxxopts::value<std::string>())(
      "opt", "agent option key=value (repeatable)", cxxopts::value<std::vector<std::string>>())(
      "model", "model file for the nn agent (same as --opt model=FILE; without --agent, plays the nn agent)", cxxopts::value<std::string>())(
      "seed", "agent random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "require-weights", "the exported bot's option, accepted here too: mushroom bot always exits before OK when "
      "the model or evaluation it plays with does not load")(
      "analysis", "on stderr, a line per move as `mushroom analyze` prints them, from the bot's own searches: its "
      "value before each move, the best move and the line it expects (agents that keep no search report print none)")(
      "h,help", "show this help");
  // The judge starts every bot with an extra argument (`./main NYPC`, README
  // "The judge"): arguments that are not options here are noted, not fatal.
  opts.allow_unrecognised_options();
  const cxxopts::ParseResult args = opts.parse(argc, argv);
  if (args.count("help")) {
    std::cout << opts.help() << std::endl;
    return 0;
  }
  for (const std::string& arg : args.unmatched())
    std::cerr << "bot: argument '" << arg << "' is not an option of mushroom bot; ignored" << std::endl;
  // --model alone still means the nn agent with that model.
  const bool contest_bot = args.count("agent") == 0 && args.count("model") == 0;
  const std::string name = args.count("agent") ? args["agent"].as<std::string>() : contest_bot ? "alphabeta" : "nn";
  AgentOptions options;
  options.seed = args["seed"].as<uint64_t>();
  read_agent_options(args, "opt", options.values);
  if (contest_bot && !options.values.count("eval")) options.values["eval"] = default_eval_path();
  if (args.count("model")) options.values["model"] = args["model"].as<std::string>();
  make_agent(name, options);  // reject unknown agents/options before the game
  std::ios::sync_with_stdio(false);
  BotSession session([&] { return make_agent(name, options); }, std::cout, std::cerr);
  if (args.count("analysis")) session.set_analysis_stream(&std::cerr);
  return session.run(std::cin);
}

}  // namespace mushroom::cli
