#include <stdexcept>

#include "agents/agent.h"
#include "agents/greedy_agent.h"
#include "agents/random_agent.h"

namespace mushroom {

std::string agent_names() { return "random, greedy"; }

std::unique_ptr<Agent> make_agent(const std::string& name, const AgentOptions& options) {
  std::unique_ptr<Agent> agent;
  if (name == "random") agent = std::make_unique<RandomAgent>(options.seed);
  else if (name == "greedy") agent = std::make_unique<GreedyAgent>();
  else throw std::invalid_argument("unknown agent '" + name + "' (known: " + agent_names() + ")");
  if (!options.values.empty())
    throw std::invalid_argument("agent '" + name + "' has no option '" + options.values.begin()->first + "'");
  return agent;
}

}  // namespace mushroom
