// Time stamps for the log lines of long jobs (mushroom run, arena, ladder):
// UTC to the second, so that lines from several machines of one run line up;
// and their progress words: time run so far and the time left.
#pragma once
#include <cstdint>
#include <string>

namespace mushroom {

// The time now, "2026-11-25 20:58:01" (UTC).
std::string log_time_stamp();
// The line after the time stamp and a space.
std::string stamped(const std::string& line);

// A duration as "H:MM:SS" ("0:04:07"), rounded to the second.
std::string clock_text(double seconds);
// "elapsed 0:01:05, left about 0:12:40": how long a long job has run and,
// at its pace so far, how long the rest should take, from the work items
// done in this process (not those read back on a resume) and those left
// (the progress reporter's estimate, seconds_left in util/progress.h).
// Before any is done, the elapsed time alone.
std::string elapsed_and_left(double elapsed_seconds, int64_t done, int64_t left);

}  // namespace mushroom
