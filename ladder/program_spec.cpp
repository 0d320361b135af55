#include "ladder/program_spec.h"

#include <filesystem>
#include <stdexcept>
#include <utility>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "arena/program_command.h"
#include "arena/seed_bots.h"

namespace mushroom {

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's path (/proc/self/exe)");
  return std::string(buf, size_t(n));
}

std::string builtin_bot_command(const std::string& self, const std::string& agent) {
  const std::filesystem::path companion = std::filesystem::path(self).parent_path() / "mushroom-bot";
  if (access(companion.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(companion))
    return shell_quote(companion.string()) + " --agent " + shell_quote(agent);
  return shell_quote(self) + " bot --agent " + shell_quote(agent);
}

std::string resolve_program(const std::string& spec, const std::string& work_dir) {
  const std::string prefix = "builtin:";
  if (spec.rfind(prefix, 0) != 0) return spec;
  const AgentSpec agent = parse_agent_spec(spec.substr(prefix.size()));
  if (agent.name == "seed-greedy") {
    if (!agent.options.empty()) throw std::invalid_argument("builtin:seed-greedy takes no options");
    return "python3 " + shell_quote(extract_seed_greedy(work_dir));
  }
  // Fail now, not inside every game, on unknown agents or options.
  make_agent(agent.name, AgentOptions{1, agent.options});
  return builtin_bot_command(self_executable(), format_agent_spec(agent));
}

std::string checkpoint_program(const std::string& path, const std::string& probcut) {
  for (const auto& [kind, file] : {std::pair<std::string, std::string>{"model file ", path}, {"fit file ", probcut}}) {
    if (file.empty() && kind == "fit file ") continue;
    if (!std::filesystem::is_regular_file(file)) throw std::invalid_argument(kind + file + " does not exist");
    if (file.find_first_of(",=") != std::string::npos)
      throw std::invalid_argument(kind + file + ": a path with ',' or '=' cannot be an agent option");
  }
  const std::string ext = std::filesystem::path(path).extension().string();
  if (!probcut.empty() && ext != ".eval")
    throw std::invalid_argument("model file " + path + ": a Multi-ProbCut fit goes with a learned evaluation (.eval)");
  if (ext == ".h5") return "builtin:nn:model=" + path;
  if (ext == ".eval") return "builtin:alphabeta:eval=" + path + (probcut.empty() ? "" : ",probcut=" + probcut);
  throw std::invalid_argument("model file " + path + " is neither a conv net (.h5) nor a learned evaluation (.eval)");
}

}  // namespace mushroom
