#include "util/log_stamp.h"

#include <ctime>

// Header-only, in this one file: the GPU box's kit carries fmt's headers.
#define FMT_HEADER_ONLY
#include <fmt/chrono.h>
#include <fmt/format.h>

namespace mushroom {

std::string log_time_stamp() { return fmt::format("{:%Y-%m-%d %H:%M:%S}", fmt::gmtime(std::time(nullptr))); }

std::string stamped(const std::string& line) { return log_time_stamp() + " " + line; }

}  // namespace mushroom
