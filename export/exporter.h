// `mushroom export-bot`: one self-contained C++ file (plus, optionally,
// data.bin) that plays the contest protocol with the given model. The file
// is the engine's own sources (export/embedded_sources.h) with their local
// includes removed, the int8 weights (nn/model_codec.h), and
// export/submission_main.cpp. It builds with `g++ -std=c++17 -O2` alone.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/model.h"

namespace mushroom::exporter {

struct ExportOptions {
  bool data_bin = false;      // weights in data.bin instead of the source
  std::string model_label;    // written in the file's header comment
};

struct ExportedBot {
  std::string source;              // submission.cpp
  std::vector<uint8_t> data_bin;   // empty unless ExportOptions::data_bin
};

ExportedBot export_bot(const nn::Model& model, const ExportOptions& options);

// "FILE_NAME (model id)": the header's model label, independent of the
// directory the model was read from, so an export is reproducible.
std::string model_label(const nn::Model& model, const std::string& path);

// The judge's limits.
constexpr size_t kMaxSourceBytes = 1 << 20;
constexpr size_t kMaxDataBinBytes = 10 << 20;

}  // namespace mushroom::exporter
