#include "ladder/program_spec.h"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>
#include <stdexcept>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "arena/seed_bots.h"

namespace mushroom {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's path (/proc/self/exe)");
  return std::string(buf, size_t(n));
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
  return shell_quote(self_executable()) + " bot --agent " + shell_quote(format_agent_spec(agent));
}

namespace {

// The words of a /bin/sh line made only of 'single-quoted' words (shell_quote's
// output, '\'' inside) and bare words; nullopt for anything else.
std::optional<std::vector<std::string>> quoted_words(const std::string& text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::string word;
    while (i < text.size() && text[i] != ' ') {
      if (text[i] == '\'') {
        const size_t end = text.find('\'', i + 1);
        if (end == std::string::npos) return std::nullopt;
        word += text.substr(i + 1, end - i - 1);
        i = end + 1;
      } else if (text[i] == '\\' && i + 1 < text.size()) {
        word += text[i + 1];
        i += 2;
      } else if (std::string_view("\"$`;&|<>()*?").find(text[i]) != std::string_view::npos) {
        return std::nullopt;  // a real shell line: leave it alone
      } else {
        word += text[i++];
      }
    }
    words.push_back(word);
  }
  return words;
}

}  // namespace

std::string canonical_program_command(const std::string& command) {
  const auto words = quoted_words(command);
  if (!words || words->size() < 4 || (*words)[1] != "bot" || (*words)[2] != "--agent") return command;
  try {
    AgentSpec spec = parse_agent_spec((*words)[3]);
    for (size_t i = 4; i < words->size(); i += 2) {
      if ((*words)[i] != "--opt" || i + 1 >= words->size()) return command;
      const AgentSpec pair = parse_agent_spec("x:" + (*words)[i + 1]);
      for (const auto& [key, value] : pair.options) spec.options[key] = value;
    }
    return shell_quote((*words)[0]) + " bot --agent " + shell_quote(format_agent_spec(spec));
  } catch (const std::invalid_argument&) {
    return command;
  }
}

std::string checkpoint_program(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw std::invalid_argument("model file " + path + " does not exist");
  const std::string ext = std::filesystem::path(path).extension().string();
  if (path.find_first_of(",=") != std::string::npos)
    throw std::invalid_argument("model file " + path + ": a path with ',' or '=' cannot be an agent option");
  if (ext == ".h5") return "builtin:nn:model=" + path;
  if (ext == ".eval") return "builtin:alphabeta:eval=" + path;
  throw std::invalid_argument("model file " + path + " is neither a conv net (.h5) nor a learned evaluation (.eval)");
}

}  // namespace mushroom
