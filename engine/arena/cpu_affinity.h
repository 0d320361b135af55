// The CPUs this process may run on. `--pin` places game slot k on the k-th
// of them (wrapping around), so a match started under taskset, in a Slurm
// allocation or in a cgroup stays inside the cores it was given.
#pragma once
#include <vector>

namespace mushroom {

// The calling thread's affinity mask (sched_getaffinity) as CPU numbers,
// ascending; where the mask cannot be read, 0 .. hardware_concurrency - 1.
// Never empty.
std::vector<int> allowed_cpus();

}  // namespace mushroom
