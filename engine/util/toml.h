// toml++, with its internal checks made exceptions. toml++ 3.3 (Debian 12)
// asserts, and so aborts the process, on malformed input that it should
// refuse: a table header that starts with neither a key character nor a
// quote, such as "[!a]" (issue 101's fuzzing). Every source that parses
// TOML includes this header instead of <toml++/toml.h> (one definition of
// toml++'s inline functions), and reports a TomlCheckFailed as malformed
// input, naming the file. (With NDEBUG, which this build never defines,
// toml++ would make the same check an assumption instead.)
#pragma once
#include <stdexcept>
#include <string>

namespace mushroom {

class TomlCheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws from a function of its own, as assert calls one: a check inside
// one of toml++'s noexcept functions then draws no "throw will always call
// terminate" warning (those checks hold on any input; the parser's do not).
[[noreturn]] inline void toml_check_failed(const char* check) {
  throw TomlCheckFailed(std::string("the TOML parser's check '") + check + "' failed");
}

}  // namespace mushroom

#ifdef TOML_ASSERT
#error "util/toml.h must be the first to include toml++"
#endif
#define TOML_ASSERT(expr) ((expr) ? void(0) : ::mushroom::toml_check_failed(#expr))
#include <toml++/toml.h>
