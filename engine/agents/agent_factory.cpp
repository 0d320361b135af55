#include <stdexcept>

#include "agents/agent.h"
#include "agents/greedy_agent.h"
#include "agents/agent_options.h"
#include "agents/random_agent.h"
#include "agents/search_agents.h"

namespace mushroom {

namespace {
std::map<std::string, AgentMaker>& registry() {
  static std::map<std::string, AgentMaker> makers;
  return makers;
}
}  // namespace

void register_agent(const std::string& name, AgentMaker maker) { registry()[name] = std::move(maker); }

std::string agent_names() {
  std::string names = "random, greedy, mcts, alphabeta";
  for (const auto& [name, maker] : registry()) names += ", " + name;
  return names;
}

// solver_moves, solver_share, wdl: when and how the root solver runs.
static void read_root_solver_options(OptionReader& opts, RootSolverConfig& c) {
  c.max_rectangles = opts.get_int("solver_moves", c.max_rectangles, 0, 64);
  c.share = opts.get_double("solver_share", c.share, 0, 1);
  c.wdl = opts.get_bool("wdl", c.wdl);
}

MctsAgentConfig read_mcts_options(OptionReader& opts, uint64_t seed) {
  MctsAgentConfig c;
  c.mcts.seed = seed;
  c.simulations = opts.get_int("sims", 0, 0, 10'000'000);
  c.mcts.gumbel = opts.get_bool("gumbel", false);
  c.mcts.gumbel_k = opts.get_int("gumbel_k", 16, 1, 1024);
  c.mcts.c_puct = opts.get_double("cpuct", c.mcts.c_puct, 0, 100);
  c.mcts.score_weight = opts.get_double("score_weight", c.mcts.score_weight, 0, 10);
  c.solver = opts.get_bool("solver", true);
  read_root_solver_options(opts, c.root_solver);
  c.time_scale = opts.get_double("time_scale", 1.0, 0.01, 10);
  c.time.solved_tail_moves = c.solver ? opts.get_double("tail", 5, 0, 20) : 0;
  return c;
}

std::unique_ptr<Agent> make_agent(const std::string& name, const AgentOptions& options) {
  OptionReader opts(name, options.values);
  std::unique_ptr<Agent> agent;
  if (name == "random") {
    agent = std::make_unique<RandomAgent>(options.seed);
  } else if (name == "greedy") {
    agent = std::make_unique<GreedyAgent>();
  } else if (name == "mcts") {
    MctsAgentConfig c = read_mcts_options(opts, options.seed);
    c.evaluator = opts.get_choice("evaluator", "material", {"material", "rollout", "random"});
    agent = std::make_unique<MctsAgent>(c);
  } else if (name == "alphabeta") {
    AlphaBetaAgentConfig c;
    c.depth = opts.get_int("depth", 0, 0, 64);
    c.solver = opts.get_bool("solver", true);
    read_root_solver_options(opts, c.root_solver);
    c.search.lmr = opts.get_bool("lmr", true);
    c.search.pvs = opts.get_bool("pvs", true);
    c.search.killers = opts.get_bool("killers", true);
    c.search.quiescence_depth = opts.get_int("qdepth", 0, 0, 16);
    c.search.quiescence_moves = opts.get_int("qmoves", 3, 1, 8);
    c.time_scale = opts.get_double("time_scale", 1.0, 0.01, 10);
    c.time.solved_tail_moves = c.solver ? opts.get_double("tail", 5, 0, 20) : 0;
    agent = std::make_unique<AlphaBetaAgent>(c);
  } else if (auto it = registry().find(name); it != registry().end()) {
    agent = it->second(opts, options);
  } else {
    throw std::invalid_argument("unknown agent '" + name + "' (known: " + agent_names() + ")");
  }
  opts.finish();
  return agent;
}

}  // namespace mushroom
