#include "export/exporter.h"

#include <cctype>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "agents/search_agents.h"
#include "alphabeta/probcut.h"
#include "export/embedded_sources.h"
#include "nn/model_codec.h"
#include "nnue/network.h"
#include "util/hash.h"

namespace mushroom::exporter {

namespace {

bool starts_with_directive(std::string_view line, std::string_view directive) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  return i != std::string_view::npos && line.substr(i, directive.size()) == directive;
}

// A project file without `#pragma once` and without its includes of other
// project files ("..."); everything they declare is already above it.
// System includes (<...>) stay where they are, inside any #if around them.
std::string strip_local_includes(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const bool local_include = starts_with_directive(line, "include") && line.find('"') != std::string_view::npos;
    if (!local_include && !starts_with_directive(line, "pragma once")) {
      out += line;
      out += '\n';
    }
    start = end + 1;
  }
  return out;
}

// The weights as a C string literal, 120 base64 characters per source line.
std::string weights_literal(const std::string& base64) {
  std::string out = "static const char kWeightsBase64[] =\n";
  for (size_t i = 0; i < base64.size(); i += 120) out += "    \"" + base64.substr(i, 120) + "\"\n";
  if (base64.empty()) out += "    \"\"\n";
  out += "    ;\n";
  return out;
}

// The Multi-ProbCut fit's text as a raw string literal ("" for none); its
// delimiter is one the text cannot end early.
std::string probcut_literal(const std::string& fit_text) {
  std::string delimiter = "fit";
  while (fit_text.find(")" + delimiter + "\"") != std::string::npos) delimiter += "x";
  return "// The learned evaluation's Multi-ProbCut fit (alphabeta/probcut.h), made with these weights; \"\": none.\n"
         "static const char kProbCutFit[] = R\"" + delimiter + "(" + fit_text + ")" + delimiter + "\";\n";
}

// The agent options as the bot reads them: "key=value,..." ("" for none).
std::string agent_options_text(const std::map<std::string, std::string>& options) {
  std::string out;
  for (const auto& [key, value] : options) out += (out.empty() ? "" : ",") + key + "=" + value;
  return out;
}

// Refuses, by name, options the bot could not play: a file option (the
// weights and the fit are the export's own), a character a plain C string
// would need escaped, and whatever the alphabeta agent itself refuses
// (an unknown key, a value out of range), checked by making the agent the
// bot will make.
void check_agent_options(const ExportOptions& options, const nnue::Network& eval) {
  if (options.agent_options.empty()) return;
  for (const auto& [key, value] : options.agent_options) {
    if (key == "eval" || key == "probcut")
      throw std::invalid_argument("export-bot: agent option " + key +
                                  " is the export's own: give the file as --" + key + " instead");
    for (const char ch : key + value)
      if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-' || ch == '+'))
        throw std::invalid_argument("export-bot: agent option " + key + "=" + value +
                                    ": only letters, digits, '_', '.', '-' and '+' may be exported");
  }
  OptionSource source("alphabeta", {options.agent_options.begin(), options.agent_options.end()});
  AlphaBetaAgentConfig config = read_alphabeta_options(source);
  if (const auto key = source.unread()) throw std::invalid_argument("agent 'alphabeta' has no option '" + *key + "'");
  config.eval_model = std::make_shared<nnue::Network>(eval);
  if (!options.probcut_fit.empty())
    config.probcut_fit = std::make_shared<ProbCutFit>(parse_probcut_fit(options.probcut_fit, options.probcut_label));
  AlphaBetaAgent agent(config);
}

}  // namespace

std::string model_label(const nn::Model& model, const std::string& path) {
  std::string label = path.substr(path.find_last_of('/') + 1);
  if (auto it = model.metadata.find("model_id"); it != model.metadata.end()) label += " (" + it->second + ")";
  return label;
}

namespace {

// The file: a header, the engine's sources, then the weights (embedded or
// announced as data.bin) and which bot plays, just before the entry point.
ExportedBot assemble(const std::vector<uint8_t>& weights, bool learned_eval_bot, const std::string& header,
                     const ExportOptions& options) {
  ExportedBot bot;
  std::ostringstream src;
  src << header;
  for (const EmbeddedSource& file : embedded_sources()) {
    if (file.path == "export/submission_main.cpp") {
      src << "\n// ---- weights ----\nnamespace mushroom::exported {\n"
          << "static const bool kLearnedEvalBot = " << (learned_eval_bot ? "true" : "false") << ";\n"
          << "static const bool kWeightsInDataBin = " << (options.data_bin ? "true" : "false") << ";\n"
          << "// The weights this source was exported with: FNV-1a 64 of their bytes, and their size.\n"
          << "static const unsigned long long kWeightsHash = 0x" << fnv1a64_hex(weights.data(), weights.size()) << "ull;\n"
          << "static const unsigned long long kWeightsBytes = " << weights.size() << "ull;\n"
          << weights_literal(options.data_bin ? std::string() : nn::base64_encode(weights))
          << probcut_literal(learned_eval_bot ? options.probcut_fit : std::string())
          << "// The alphabeta agent's options, read over its defaults (agents/search_agents.h); \"\": none.\n"
          << "static const char kAgentOptions[] = \"" << agent_options_text(options.agent_options) << "\";\n"
          << "}  // namespace mushroom::exported\n";
    }
    src << "\n// ---- " << file.path << " ----\n" << strip_local_includes(file.text);
  }
  bot.source = src.str();
  if (options.data_bin) bot.data_bin = weights;
  return bot;
}

// The judge's lines, as docs/submission.md "The judge" states them (its Boost paths
// left out: nothing here uses Boost).
const char* const kBuildLine =
    "// Build and run as the judge does (README.md, \"The judge\"): save as main.cpp beside data.bin, then\n"
    "//   g++ -std=gnu++20 -O2 -DONLINE_JUDGE -DNYPC -Wall -Wextra -march=native -mtune=native -o main main.cpp\n"
    "//   ./main NYPC\n";

}  // namespace

ExportedBot export_bot(const nn::Model& model, const ExportOptions& options) {
  if (!options.agent_options.empty())
    throw std::invalid_argument("export-bot: agent options are the alphabeta bot's (--eval), not the conv-net bot's");
  std::ostringstream header;
  header << "// submission.cpp: the mushroom bot, generated by `mushroom export-bot`; do not edit.\n"
         << "// Model: " << (options.model_label.empty() ? "(unnamed)" : options.model_label) << ", "
         << nn::describe(model.config) << ", " << model.parameter_count() << " parameters, int8 weights "
         << (options.data_bin ? "in data.bin" : "embedded below") << ".\n"
         << kBuildLine
         << "// Plays the contest protocol on stdin/stdout: PUCT MCTS on the policy/value net, exact endgames,\n"
         << "// moves planned from the 10 s CPU-time bank. Made of the engine's own sources, in the order below.\n";
  return assemble(nn::encode_model_int8(model), false, header.str(), options);
}

ExportedBot export_eval_bot(const std::string& eval_file_bytes, const ExportOptions& options) {
  const nnue::Network eval = nnue::parse_network(eval_file_bytes, options.model_label);
  check_agent_options(options, eval);
  std::ostringstream header;
  header << "// submission.cpp: the mushroom bot, generated by `mushroom export-bot`; do not edit.\n"
         << "// Evaluation: " << (options.model_label.empty() ? "(unnamed)" : options.model_label)
         << ", learned (" << eval.shape.to_string() << "), "
         << eval_file_bytes.size() << " bytes " << (options.data_bin ? "in data.bin" : "embedded below") << ".\n"
         << "// Multi-ProbCut fit: "
         << (options.probcut_fit.empty() ? std::string("none")
                                          : (options.probcut_label.empty() ? "(unnamed)" : options.probcut_label) +
                                                ", embedded below")
         << ".\n"
         << "// Agent options: "
         << (options.agent_options.empty() ? std::string("none (the alphabeta agent's defaults)")
                                           : agent_options_text(options.agent_options))
         << ".\n"
         << kBuildLine
         << "// Plays the contest protocol on stdin/stdout: alpha-beta with the learned evaluation (the hand one\n"
         << "// if its weights do not load), exact endgames, moves planned from the 10 s CPU-time bank.\n";
  return assemble(std::vector<uint8_t>(eval_file_bytes.begin(), eval_file_bytes.end()), true, header.str(), options);
}

}  // namespace mushroom::exporter
