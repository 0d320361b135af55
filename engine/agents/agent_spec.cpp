#include "agents/agent_spec.h"

#include <stdexcept>

#include "util/shipped_file.h"

namespace mushroom {

AgentSpec parse_agent_spec(const std::string& spec) {
  AgentSpec out;
  const size_t colon = spec.find(':');
  out.name = spec.substr(0, colon);
  if (out.name.empty()) throw std::invalid_argument("agent '" + spec + "' has no name before its options");
  if (colon == std::string::npos) return out;
  const std::string options = spec.substr(colon + 1);
  size_t start = 0;
  while (start <= options.size()) {
    size_t end = options.find(',', start);
    if (end == std::string::npos) end = options.size();
    const std::string pair = options.substr(start, end - start);
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("agent option '" + pair + "' in '" + spec + "' is not key=value");
    out.options[pair.substr(0, eq)] = pair.substr(eq + 1);
    start = end + 1;
  }
  return out;
}

std::string format_agent_spec(const AgentSpec& spec) {
  std::string out = spec.name;
  char sep = ':';
  for (const auto& [key, value] : spec.options) {
    out += sep + key + "=" + value;
    sep = ',';
  }
  return out;
}

AgentSpec contest_bot_spec() {
  AgentSpec spec{"alphabeta", {{"eval", default_eval_path()}}};
  if (const std::string fit = default_probcut_path(); !fit.empty()) spec.options["probcut"] = fit;
  return spec;
}

}  // namespace mushroom
