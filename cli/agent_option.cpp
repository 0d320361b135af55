// The agent options of the command line, apart from main.cpp: `mushroom bot`
// needs them, and so does mushroom-bot (bot_main.cpp), which links that
// command alone.
#include <iostream>
#include <stdexcept>

#include "cli/command.h"
#include "util/shipped_file.h"

namespace mushroom::cli {

void read_agent_options(const cxxopts::ParseResult& args, const std::string& name,
                        std::map<std::string, std::string>& out) {
  if (!args.count(name)) return;
  for (const std::string& pair : args[name].as<std::vector<std::string>>()) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--" + name + " '" + pair + "' is not key=value");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
}

AgentSpec agent_spec_option(const cxxopts::ParseResult& args, const std::string& command, const std::string& option,
                            const std::string& old_options, const AgentSpec& fallback) {
  AgentSpec spec = args.count(option) ? parse_agent_spec(args[option].as<std::string>()) : fallback;
  if (args.count(old_options)) {
    std::map<std::string, std::string> extra;
    read_agent_options(args, old_options, extra);
    for (const auto& [key, value] : extra) spec.options[key] = value;
    std::cerr << "mushroom " << command << ": --" << old_options << " is an old spelling; write --" << option << " "
              << format_agent_spec(spec) << std::endl;
  }
  // The files an agent reads, named as in a checkout (eval=models/eval.bin),
  // are found from any folder as the defaults are (util/data_roots.h).
  for (const char* file_key : {"eval", "probcut", "model", "policy"})
    if (auto it = spec.options.find(file_key); it != spec.options.end()) it->second = shipped_or_given(it->second);
  return spec;
}

}  // namespace mushroom::cli
