#include "seeds/judge_input.h"

#include <charconv>

namespace mushroom {

namespace {
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
}  // namespace

int JudgeInput::line_number() const {
  int n = 1;
  for (size_t i = 0; i < pos_ && i < text_.size(); ++i) n += text_[i] == '\n';
  return n;
}

void JudgeInput::fail(const std::string& why) const {
  throw ParseError(what_ + " input, line " + std::to_string(line_number()) + ": " + why);
}

bool JudgeInput::at_end() {
  while (pos_ < text_.size() && blank(text_[pos_])) ++pos_;
  return pos_ >= text_.size();
}

std::string_view JudgeInput::token(const char* expected) {
  if (at_end()) fail(std::string("input ended; expected ") + expected);
  const size_t start = pos_;
  while (pos_ < text_.size() && !blank(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

int64_t JudgeInput::integer(const char* expected, int64_t lo, int64_t hi) {
  const std::string_view word = token(expected);
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || ptr != word.data() + word.size())
    fail(std::string("expected ") + expected + ", got '" + std::string(word) + "'");
  if (value < lo || value > hi)
    fail(std::string(expected) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
         std::to_string(value));
  return value;
}

std::string_view JudgeInput::line(const char* expected) {
  if (at_end()) fail(std::string("input ended; expected ") + expected);
  const size_t start = pos_;
  while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  std::string_view l = text_.substr(start, pos_ - start);
  while (!l.empty() && blank(l.back())) l.remove_suffix(1);
  return l;
}

}  // namespace mushroom
