// The one way to name an agent with its options, on every command:
//
//   NAME[:key=value,key=value...]      e.g. alphabeta:depth=4,eval=models/eval.bin
//
// `mushroom bot --agent`, `play --first/--second`, `analyze --agent` take
// it as is; the arena and the ladder take it after `builtin:`.
#pragma once
#include <map>
#include <string>

namespace mushroom {

struct AgentSpec {
  std::string name;
  std::map<std::string, std::string> options;
};

// Throws std::invalid_argument naming the spec and the part that is not
// key=value, or an empty name. Neither the name nor the keys are checked
// here (make_agent does that).
AgentSpec parse_agent_spec(const std::string& spec);
// The spec text back, options in key order.
std::string format_agent_spec(const AgentSpec& spec);

// The contest bot, what `mushroom bot` plays when no agent is named:
// alphabeta with the shipped learned evaluation (util/shipped_file.h,
// default_eval_path) and its Multi-ProbCut fit (default_probcut_path) when
// there is one. Throws std::runtime_error naming the places searched when
// a shipped file is missing.
AgentSpec contest_bot_spec();

}  // namespace mushroom
