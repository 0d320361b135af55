#include "nn/nn_agent.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "agents/agent_options.h"
#include "agents/search_agents.h"
#include "nn/cpu_net.h"
#include "nn/model_file.h"
#include "nn/net_prior_evaluator.h"
#include "nn/nn_evaluator.h"

namespace mushroom::nn {

std::string default_model_path() {
  if (const char* env = std::getenv("MUSHROOM_MODEL"); env && *env) return env;
  const std::string candidates[] = {"models/default.h5", std::string(MUSHROOM_SOURCE_DIR) + "/models/default.h5"};
  for (const auto& c : candidates)
    if (std::filesystem::exists(c)) return c;
  throw std::runtime_error("no default model: looked for $MUSHROOM_MODEL, " + candidates[0] + " and " + candidates[1] +
                           "; pass model=FILE");
}

void register_nn_agent() {
  register_agent("nn", [](OptionReader& opts, const AgentOptions& options) -> std::unique_ptr<Agent> {
    MctsAgentConfig c = read_mcts_options(opts, options.seed);
    c.agent_name = "nn";
    std::string path = opts.get_string("model", "");
    NnEvaluatorConfig ec;
    ec.symmetry = parse_symmetry_mode(opts.get_choice("sym", "none", {"none", "random", "all"}));
    ec.cache_entries = opts.get_int("cache", 1 << 16, 0, 1 << 24);
    // > 0: the net gives priors to this many leaves per move, material gives every value.
    const int net_leaves = opts.get_int("net_leaves", 0, 0, 1 << 20);
    opts.finish();  // a misspelt option is reported before any model search
    if (path.empty()) path = default_model_path();
    const Model model = load_model(path);
    auto net = std::make_shared<NnEvaluator>(std::make_shared<CpuNet>(model), ec);
    if (net_leaves > 0) c.custom_evaluator = std::make_shared<NetPriorEvaluator>(net, net_leaves);
    else c.custom_evaluator = net;
    return std::make_unique<MctsAgent>(c);
  });
}

}  // namespace mushroom::nn
