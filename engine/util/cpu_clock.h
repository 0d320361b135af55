// CPU time of the calling thread, in milliseconds: what a per-game CPU-time
// limit counts, unaffected by other processes sharing the machine.
#pragma once
#include <ctime>

namespace mushroom {

inline double thread_cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

}  // namespace mushroom
