#include <iostream>

#include "cli/command.h"
#include "protocol/bot_session.h"

namespace mushroom::cli {

// Also mushroom-bot's whole program (bot_main.cpp), which names itself in argv[0].
int cmd_bot(int argc, char** argv) {
  cxxopts::Options opts(argv[0],
                        "Play one game over the contest protocol on stdin/stdout (READY, INIT, TIME, OPP, "
                        "FINISH). Only OK and moves are printed on stdout; warnings go to stderr. With no --agent it plays "
                        "the contest bot, the strongest by measurement (BENCHMARKS.md): alphabeta with the learned "
                        "evaluation models/eval.bin ($MUSHROOM_EVAL overrides) and its Multi-ProbCut fit models/eval.probcut "
                        "($MUSHROOM_PROBCUT overrides, none turns it off; with $MUSHROOM_EVAL alone it is off, since a "
                        "fit belongs to one evaluation), iterative deepening on the 10 s CPU-time bank; that is --agent "
                        "alphabeta:eval=models/eval.bin,probcut=models/eval.probcut. --agent alphabeta alone is the "
                        "hand evaluation.\n\nAn agent is NAME[:key=value,...] (e.g. alphabeta:depth=4,eval=FILE), as "
                        "everywhere in mushroom. Each agent's options, with default, range and help:\n" +
                            agent_options_help());
  opts.add_options()("agent", "the agent, NAME[:key=value,...]; NAME one of " + agent_names(),
                     cxxopts::value<std::string>())(
      "opt", "old spelling: an agent option key=value (repeatable); write --agent NAME:key=value",
      cxxopts::value<std::vector<std::string>>())(
      "model", "old spelling of --agent nn:model=FILE", cxxopts::value<std::string>())(
      "seed", "agent random seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "require-weights", "the exported bot's option, accepted here too: mushroom bot always exits before OK when "
      "the model or evaluation it plays with does not load")(
      "analysis", "on stderr, a line per move as `mushroom analyze` prints them, from the bot's own searches: its "
      "value before each move, the best move and the line it expects (agents that keep no search report print none)")(
      "h,help", "show this help");
  // The judge starts every bot with an extra argument (`./main NYPC`,
  // docs/submission.md "The judge"), taken quietly; other arguments that are not options here
  // are noted, not fatal.
  opts.allow_unrecognised_options();
  add_output_options(opts);
  const cxxopts::ParseResult args = opts.parse(argc, argv);
  if (args.count("help")) {
    std::cout << opts.help() << std::endl;
    return 0;
  }
  apply_output_options(args);
  for (const std::string& arg : args.unmatched())
    if (arg != "NYPC") std::cerr << "bot: argument '" << arg << "' is not an option of mushroom bot; ignored" << std::endl;
  // --model alone still means the nn agent with that model.
  AgentSpec fallback = contest_bot_spec();
  if (args.count("model")) {
    if (args.count("agent")) throw std::invalid_argument("give the model inside --agent (nn:model=FILE), not as --model");
    fallback = AgentSpec{"nn", {{"model", args["model"].as<std::string>()}}};
    std::cerr << "mushroom bot: --model is an old spelling; write --agent " << format_agent_spec(fallback) << std::endl;
  }
  const AgentSpec spec = agent_spec_option(args, "bot", "agent", "opt", fallback);
  AgentOptions options;
  options.seed = args["seed"].as<uint64_t>();
  options.values = spec.options;
  make_agent(spec.name, options);  // reject unknown agents/options before the game
  std::ios::sync_with_stdio(false);
  BotSession session([&] { return make_agent(spec.name, options); }, std::cout, std::cerr);
  if (args.count("analysis")) session.set_analysis_stream(&std::cerr);
  return session.run(std::cin);
}

}  // namespace mushroom::cli
