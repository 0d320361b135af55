// The engine sources the exported bot is made of, embedded in the mushroom
// binary at build time (export/embed_sources.cmake), so export-bot works
// from any directory and always matches the engine it was built with.
#pragma once
#include <string_view>
#include <vector>

namespace mushroom::exporter {

struct EmbeddedSource {
  std::string_view path;  // relative to the repository root
  std::string_view text;
};

// In amalgamation order: headers in dependency order, then sources, then
// export/submission_main.cpp.
const std::vector<EmbeddedSource>& embedded_sources();

}  // namespace mushroom::exporter
