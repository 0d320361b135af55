#include "arena/cpu_affinity.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace mushroom {

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  if (cpus.empty())
    for (int cpu = 0; cpu < int(std::max(1u, std::thread::hardware_concurrency())); ++cpu) cpus.push_back(cpu);
  return cpus;
}

}  // namespace mushroom
