#include "arena/cpu_clock.h"

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <sstream>
#include <string>
#include <unistd.h>

namespace mushroom {

// The command name (field 2) may hold spaces and parentheses, so the
// fields are counted from the last ')'.
bool read_proc_stat(const std::string& pid, ProcStat& out) {
  const std::string text = proc_stat_text(pid);
  if (text.empty()) return false;
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 1));
  // After ')': 3 state, 4 ppid, 5 pgrp, ..., 14 utime, 15 stime, 16 cutime, 17 cstime.
  long long ppid = 0, pgrp = 0, skip = 0;
  fields >> out.state >> ppid >> pgrp;
  for (int field = 6; field <= 13; ++field) fields >> skip;
  fields >> out.utime >> out.stime >> out.cutime >> out.cstime;
  if (!fields) return false;
  out.pgrp = pid_t(pgrp);
  return true;
}

namespace {

double ticks_to_ms(long long ticks) {
  static const double ms_per_tick = 1000.0 / double(sysconf(_SC_CLK_TCK));
  return double(ticks) * ms_per_tick;
}

// A live process's own CPU time (all threads) to the nanosecond, or the
// tick-resolution figure when the clock cannot be had (e.g. a zombie).
double own_cpu_ms(pid_t pid, const ProcStat& stat) {
  clockid_t clock;
  timespec ts{};
  if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &ts) == 0)
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
  return ticks_to_ms(stat.utime + stat.stime);
}

}  // namespace

std::string proc_stat_text(const std::string& pid) {
  const int fd = open(("/proc/" + pid + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buffer[1024];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      text.clear();  // gone while read: no answer rather than half of one
      break;
    }
    if (n == 0) break;
    text.append(buffer, size_t(n));
  }
  close(fd);
  return text;
}

double process_group_cpu_ms(pid_t pgid) {
  double total = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (const dirent* entry = readdir(proc)) {
    const char* name = entry->d_name;
    if (name[0] < '1' || name[0] > '9') continue;
    ProcStat stat;
    if (!read_proc_stat(name, stat) || stat.pgrp != pgid) continue;
    total += own_cpu_ms(pid_t(std::atol(name)), stat) + ticks_to_ms(stat.cutime + stat.cstime);
  }
  closedir(proc);
  return total;
}

}  // namespace mushroom
