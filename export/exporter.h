// `mushroom export-bot`: one self-contained C++ file (plus, optionally,
// data.bin) that plays the contest protocol with the given model: a conv
// net for MCTS, or a learned evaluation for alpha-beta. The file
// is the engine's own sources (export/embedded_sources.h) with their local
// includes removed, the int8 weights (nn/model_codec.h), and
// export/submission_main.cpp. It builds with the judge's command line
// (docs/submission.md, "The judge"), and with `g++ -std=c++17 -O2` alone.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nn/model.h"

namespace mushroom::exporter {

struct ExportOptions {
  bool data_bin = false;      // weights in data.bin instead of the source
  std::string model_label;    // written in the file's header comment
  // The learned evaluation's Multi-ProbCut fit (alphabeta/probcut.h), its
  // text embedded in the source for the bot's search; "" for none. The
  // caller checks that it was made with the exported evaluation.
  std::string probcut_fit;
  std::string probcut_label;  // the fit's file name, for the header comment
  // The learned-evaluation bot's alphabeta options (agents/search_agents.h,
  // alphabeta_settings), key to value, embedded in the source and read by
  // the bot over the agent's defaults; empty: the defaults. export_eval_bot
  // checks them as the agent does (eval and probcut are the export's own).
  std::map<std::string, std::string> agent_options;
};

struct ExportedBot {
  std::string source;              // submission.cpp
  std::vector<uint8_t> data_bin;   // empty unless ExportOptions::data_bin
};

// The conv-net bot: the `nn` agent's defaults, the model's int8 weights
// (options.agent_options must be empty: they are alphabeta's).
ExportedBot export_bot(const nn::Model& model, const ExportOptions& options);
// The alpha-beta bot with a learned evaluation: the `alphabeta` agent's
// defaults with options.agent_options over them, the evaluation file's
// bytes (nnue/network.h; checked here, and again by the bot when it
// starts). Throws std::invalid_argument naming an option the agent would
// refuse (unknown, out of range, or one the fit cannot serve).
ExportedBot export_eval_bot(const std::string& eval_file_bytes, const ExportOptions& options);

// "FILE_NAME (model id)": the header's model label, independent of the
// directory the model was read from, so an export is reproducible.
std::string model_label(const nn::Model& model, const std::string& path);

// The judge's limits.
constexpr size_t kMaxSourceBytes = 1 << 20;
constexpr size_t kMaxDataBinBytes = 10 << 20;

}  // namespace mushroom::exporter
