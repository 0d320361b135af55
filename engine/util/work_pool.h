// One pool for jobs played side by side: the arena's and the ladder's games,
// the training loop's gating and evaluation matches, PseudoTonga's games.
#pragma once
#include <functional>

namespace mushroom {

// Runs job(index, slot) for every index in [0, count), on min(threads,
// count) threads; slot is the thread's number (0..threads-1), e.g. to pin
// its games to a core. Jobs are handed out in index order. Once `stop`
// (when given) returns true, or a job has thrown, no further job is handed
// out; the first exception is rethrown after every thread has finished.
void run_jobs(int count, int threads, const std::function<void(int index, int slot)>& job,
              const std::function<bool()>& stop = nullptr);

}  // namespace mushroom
