#include "util/log_stamp.h"

#include "util/progress.h"

#include <ctime>

// Header-only, in this one file: the GPU box's kit carries fmt's headers.
#define FMT_HEADER_ONLY
#include <fmt/chrono.h>
#include <fmt/format.h>

namespace mushroom {

std::string log_time_stamp() { return fmt::format("{:%Y-%m-%d %H:%M:%S}", fmt::gmtime(std::time(nullptr))); }

std::string stamped(const std::string& line) { return log_time_stamp() + " " + line; }

std::string clock_text(double seconds) {
  const int64_t t = int64_t(seconds + 0.5);
  return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
}

std::string elapsed_and_left(double elapsed_seconds, int64_t done, int64_t left) {
  std::string text = "elapsed " + clock_text(elapsed_seconds);
  if (done > 0) text += ", left about " + clock_text(seconds_left(elapsed_seconds, done, left));
  return text;
}

}  // namespace mushroom
