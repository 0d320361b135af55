#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace mushroom::fuzz {

namespace fs = std::filesystem;

namespace {

const fs::path& scratch_root() {
  static const fs::path root = [] {
    const fs::path dir = fs::temp_directory_path() / ("mushroom-fuzz-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch_root(), ignored);
    });
    return dir;
  }();
  return root;
}

}  // namespace

std::string fresh_scratch() {
  const fs::path& root = scratch_root();
  for (const auto& entry : fs::directory_iterator(root)) fs::remove_all(entry.path());
  return root.string();
}

std::string write_scratch_file(const std::string& relative, std::string_view bytes) {
  const fs::path path = scratch_root() / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out.flush()) finding("cannot write the scratch file " + path.string());
  return path.string();
}

std::vector<std::string_view> split_parts(std::string_view data, size_t max_parts) {
  constexpr std::string_view kSeparator = "\n--8<--\n";
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    const size_t at = data.find(kSeparator);
    if (at == std::string_view::npos) break;
    parts.push_back(data.substr(0, at));
    data.remove_prefix(at + kSeparator.size());
  }
  parts.push_back(data);
  parts.resize(max_parts);
  return parts;
}

bool verbose() {
  static const bool on = std::getenv("MUSHROOM_FUZZ_VERBOSE") != nullptr;
  return on;
}

void print_verdict(const std::string& source, const char* refusal) {
  if (refusal) std::fprintf(stderr, "refused: %s\n", refusal);
  else std::fprintf(stderr, "read: %s\n", source.c_str());
}

std::string first_difference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '\n') ++line, start = i + 1;
  const auto line_of = [&](const std::string& text) { return text.substr(start, text.find('\n', start) - start); };
  return "line " + std::to_string(line) + ": '" + line_of(a) + "' then '" + line_of(b) + "'";
}

void finding(const std::string& what) {
  std::fprintf(stderr, "\nFINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace mushroom::fuzz
