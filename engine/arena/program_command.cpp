#include "arena/program_command.h"

#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "agents/agent_spec.h"

namespace mushroom {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
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
  auto words = quoted_words(command);
  // mushroom-bot --agent A is mushroom bot --agent A beside it (ladder/program_spec.h).
  const std::string companion = "mushroom-bot";
  if (words && words->size() >= 3 && (*words)[1] == "--agent" && (*words)[0].size() >= companion.size() &&
      (*words)[0].compare((*words)[0].size() - companion.size(), companion.size(), companion) == 0 &&
      ((*words)[0].size() == companion.size() || (*words)[0][(*words)[0].size() - companion.size() - 1] == '/')) {
    (*words)[0].erase((*words)[0].size() - 4);  // "-bot"
    words->insert(words->begin() + 1, "bot");
  }
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

}  // namespace mushroom
