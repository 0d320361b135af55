#include "nn/nn_agent.h"

#include <stdexcept>

#include "agents/search_agents.h"
#include "nn/cpu_net.h"
#include "nn/model_file.h"
#include "nn/net_prior_evaluator.h"
#include "nn/nn_evaluator.h"
#include "nn/policy_orderer.h"
#include "util/shipped_file.h"

namespace mushroom::nn {

std::string default_model_path() {
  return find_shipped_file("MUSHROOM_MODEL", "models/default.h5", "pass model=FILE");
}

namespace {

// The nn agent's own options, beside the shared MCTS ones.
struct NnAgentOptions {
  std::string model;        // "": default_model_path()
  std::string sym = "none";
  int cache = NnEvaluatorConfig{}.cache_entries;
  int net_leaves = 0;       // > 0: the net gives priors to this many leaves per move, material gives every value
};

const SettingsTable<NnAgentOptions>& nn_agent_settings() {
#define FIELD(name) [](auto& c) -> auto& { return c.name; }
  static const SettingsTable<NnAgentOptions> table =
      SettingsTable<NnAgentOptions>("nn")
          .text("model", FIELD(model), "model file (default: $MUSHROOM_MODEL, else models/default.h5)")
          .choice("sym", FIELD(sym), {"none", "random", "all"}, "board symmetries of each evaluation")
          .integer("cache", FIELD(cache), 0, 1 << 24, "evaluation cache entries")
          .integer("net_leaves", FIELD(net_leaves), 0, 1 << 20,
                   "> 0: net priors for this many leaves per move, material values for all");
#undef FIELD
  return table;
}

// alphabeta-policy's own options, beside alphabeta's.
struct PolicyOrderOptions {
  std::string policy;  // "": default_model_path()
  int plies = 1;
};

const SettingsTable<PolicyOrderOptions>& policy_order_settings() {
#define FIELD(name) [](auto& c) -> auto& { return c.name; }
  static const SettingsTable<PolicyOrderOptions> table =
      SettingsTable<PolicyOrderOptions>("alphabeta-policy")
          .text("policy", FIELD(policy), "conv-net model file (default: $MUSHROOM_MODEL, else models/default.h5)")
          .integer("plies", FIELD(plies), 1, 8, "plies whose moves the net's policy orders");
#undef FIELD
  return table;
}

}  // namespace

static void register_alphabeta_policy_agent() {
  register_agent(
      "alphabeta-policy",
      [](OptionSource& opts, const AgentOptions&) -> std::unique_ptr<Agent> {
        AlphaBetaAgentConfig c = read_alphabeta_options(opts);
        PolicyOrderOptions own;
        policy_order_settings().read(opts, own);
        reject_unread_options("alphabeta-policy", opts);
        c.search.orderer_plies = own.plies;
        c.orderer = std::make_shared<PolicyOrderer>(load_model(own.policy.empty() ? default_model_path() : own.policy));
        return std::make_unique<AlphaBetaAgent>(c);
      },
      alphabeta_settings().help_text() + policy_order_settings().help_text());
}

void register_nn_agent() {
  register_alphabeta_policy_agent();
  register_agent(
      "nn",
      [](OptionSource& opts, const AgentOptions& options) -> std::unique_ptr<Agent> {
        MctsAgentConfig c = read_mcts_search_options(opts, options.seed);
        c.agent_name = "nn";
        NnAgentOptions own;
        nn_agent_settings().read(opts, own);
        // A misspelt option is reported before any model search.
        reject_unread_options("nn", opts);
        NnEvaluatorConfig ec;
        ec.symmetry = parse_symmetry_mode(own.sym);
        ec.cache_entries = own.cache;
        const Model model = load_model(own.model.empty() ? default_model_path() : own.model);
        auto net = std::make_shared<NnEvaluator>(std::make_shared<CpuNet>(model), ec);
        if (own.net_leaves > 0) c.custom_evaluator = std::make_shared<NetPriorEvaluator>(net, own.net_leaves);
        else c.custom_evaluator = net;
        return std::make_unique<MctsAgent>(c);
      },
      mcts_search_settings().help_text() + nn_agent_settings().help_text());
}

}  // namespace mushroom::nn
