#include "run/run_clock.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

#include "util/text.h"

namespace mushroom::run {

namespace fs = std::filesystem;

namespace {
double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

RunClock::RunClock(const fs::path& run_root, std::function<double()> now)
    : now_(now ? std::move(now) : std::function<double()>(unix_now)), root_(run_root) {
  begin(now_());
}

void RunClock::begin(double now) {
  fs::create_directories(root_ / "clock");
  start_ = now;
  char name[64];
  std::snprintf(name, sizeof name, "%.0f-%d.txt", start_, int(getpid()));
  file_ = root_ / "clock" / name;
  write(start_);
  written_ = start_;
}

void RunClock::touch() {
  const double now = now_();
  if (now - written_ > kPauseSeconds) return begin(now);  // stopped meanwhile: the pause is not the run's time
  if (now - written_ < 1.0) return;
  write(now);
  written_ = now;
}

void RunClock::write(double end) const {
  char line[64];
  std::snprintf(line, sizeof line, "%.3f %.3f\n", start_, end);
  write_file_atomic(file_.string(), line);
}

double run_clock_seconds(const fs::path& run_root) {
  const fs::path dir = run_root / "clock";
  if (!fs::exists(dir)) return 0;
  std::vector<std::pair<double, double>> intervals;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;  // temp files of a write in progress
    std::istringstream in(read_file(e.path().string()));
    double start = 0, end = 0;
    if (!(in >> start >> end) || end < start)
      throw RunClockError(e.path().string() + ": not a run-clock interval (\"start end\" in Unix seconds)");
    intervals.emplace_back(start, end);
  }
  std::sort(intervals.begin(), intervals.end());
  double total = 0, lo = 0, hi = -1;
  for (const auto& [start, end] : intervals) {
    if (start > hi) {
      if (hi > lo) total += hi - lo;
      lo = start;
      hi = end;
    } else {
      hi = std::max(hi, end);
    }
  }
  if (hi > lo) total += hi - lo;
  return total;
}

}  // namespace mushroom::run
