// What the fuzz targets share (fuzz/README.md): a scratch folder of the
// process's own for the readers that take a path, an input cut into the
// several files a reader reads together, and the promise every reader
// keeps: bad input is refused with an exception whose message names what
// was read; anything else (a crash, a sanitizer report, another exception,
// a message that does not say which file) is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace mushroom::fuzz {

// The scratch folder, emptied: made under the temp dir ($TMPDIR) on first
// use, one per process, and removed when the process exits.
std::string fresh_scratch();
// Writes `bytes` to scratch/relative, making its folders; returns the path.
std::string write_scratch_file(const std::string& relative, std::string_view bytes);

// The input cut at each line "--8<--" (the separator in the seeds and the
// dictionaries) into at most max_parts parts; missing parts are empty.
std::vector<std::string_view> split_parts(std::string_view data, size_t max_parts);

// The input as text.
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// Reports a broken promise on stderr and aborts, so that libFuzzer keeps
// the input as a finding.
[[noreturn]] void finding(const std::string& what);
// "line N: 'A' then 'B'": where two texts that should be equal first differ.
std::string first_difference(const std::string& a, const std::string& b);

// Whether MUSHROOM_FUZZ_VERBOSE is set: each reader's verdict is then
// printed (to see what a seed or a finding reaches).
bool verbose();
void print_verdict(const std::string& source, const char* refusal);

// Runs read(): true when it returned, false when it refused the input with
// an exception that names `source`. Any other outcome is a finding.
template <typename Read>
bool read_or_refuse(const std::string& source, Read&& read) {
  try {
    read();
    if (verbose()) print_verdict(source, nullptr);
    return true;
  } catch (const std::exception& e) {
    if (std::string_view(e.what()).find(source) == std::string_view::npos)
      finding("the refusal does not name " + source + ": " + e.what());
    if (verbose()) print_verdict(source, e.what());
    return false;
  }
}

}  // namespace mushroom::fuzz
