// A whitespace tokenizer for judge-format input on stdin, with errors that
// name the token that broke the format.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "util/parse_error.h"

namespace mushroom {

class JudgeInput {
 public:
  JudgeInput(std::string_view text, std::string what) : text_(text), what_(std::move(what)) {}
  // The next whitespace-separated token; throws ParseError at the end.
  std::string_view token(const char* expected);
  // The next token as an integer in [lo, hi].
  int64_t integer(const char* expected, int64_t lo, int64_t hi);
  // The next non-blank line, trimmed.
  std::string_view line(const char* expected);
  bool at_end();
  [[noreturn]] void fail(const std::string& why) const;

 private:
  int line_number() const;
  std::string_view text_;
  size_t pos_ = 0;
  std::string what_;
};

}  // namespace mushroom
