#include <stdexcept>

#include "agents/agent.h"
#include "agents/greedy_agent.h"
#include "agents/random_agent.h"
#include "agents/search_agents.h"

namespace mushroom {

namespace {

struct Registered {
  AgentMaker maker;
  std::string options_help;
};

std::map<std::string, Registered>& registry() {
  static std::map<std::string, Registered> makers;
  return makers;
}

#define FIELD(name) [](auto& c) -> auto& { return c.name; }

// The `mcts` agent's own option, beside the shared MCTS ones.
const SettingsTable<MctsAgentConfig>& mcts_evaluator_settings() {
  static const SettingsTable<MctsAgentConfig> table = SettingsTable<MctsAgentConfig>("mcts").choice(
      "evaluator", FIELD(evaluator), {"material", "rollout", "random"}, "leaf values without a network");
  return table;
}

#undef FIELD

}  // namespace

void reject_unread_options(const std::string& agent, const OptionSource& opts) {
  if (const auto key = opts.unread()) throw std::invalid_argument("agent '" + agent + "' has no option '" + *key + "'");
}

void register_agent(const std::string& name, AgentMaker maker, std::string options_help) {
  registry()[name] = {std::move(maker), std::move(options_help)};
}

std::string agent_names() {
  std::string names = "random, greedy, mcts, alphabeta";
  for (const auto& [name, entry] : registry()) names += ", " + name;
  return names;
}

std::string agent_options_help() {
  std::string out = "random, greedy: no options\nmcts:\n" + mcts_search_settings().help_text() +
                    mcts_evaluator_settings().help_text() + "alphabeta:\n" + alphabeta_settings().help_text();
  for (const auto& [name, entry] : registry()) out += name + ":\n" + entry.options_help;
  return out;
}

std::unique_ptr<Agent> make_agent(const std::string& name, const AgentOptions& options) {
  OptionSource opts("agent '" + name + "'", {options.values.begin(), options.values.end()});
  std::unique_ptr<Agent> agent;
  if (name == "random") {
    agent = std::make_unique<RandomAgent>(options.seed);
  } else if (name == "greedy") {
    agent = std::make_unique<GreedyAgent>();
  } else if (name == "mcts") {
    MctsAgentConfig c = read_mcts_search_options(opts, options.seed);
    mcts_evaluator_settings().read(opts, c);
    agent = std::make_unique<MctsAgent>(c);
  } else if (name == "alphabeta") {
    agent = std::make_unique<AlphaBetaAgent>(read_alphabeta_options(opts));
  } else if (auto it = registry().find(name); it != registry().end()) {
    agent = it->second.maker(opts, options);
  } else {
    throw std::invalid_argument("unknown agent '" + name + "' (known: " + agent_names() + ")");
  }
  reject_unread_options(name, opts);
  return agent;
}

}  // namespace mushroom
