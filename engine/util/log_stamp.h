// Time stamps for the log lines of long jobs (mushroom run, arena, ladder):
// UTC to the second, so that lines from several machines of one run line up.
#pragma once
#include <string>

namespace mushroom {

// The time now, "2026-11-25 20:58:01" (UTC).
std::string log_time_stamp();
// The line after the time stamp and a space.
std::string stamped(const std::string& line);

}  // namespace mushroom
