#include "util/work_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

namespace mushroom {
namespace {

TEST(WorkPool, RunsEveryJobOnceOnAtMostTheThreadsAsked) {
  std::vector<std::atomic<int>> runs(100);
  std::mutex mutex;
  std::set<int> slots;
  run_jobs(100, 3, [&](int index, int slot) {
    runs[size_t(index)]++;
    std::lock_guard<std::mutex> lock(mutex);
    slots.insert(slot);
  });
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  for (int s : slots) EXPECT_TRUE(s >= 0 && s < 3) << s;
  run_jobs(0, 4, [&](int, int) { FAIL() << "no job to run"; });
  std::atomic<int> alone{0};
  run_jobs(2, 8, [&](int, int slot) { EXPECT_LT(slot, 2); ++alone; });  // never more threads than jobs
  EXPECT_EQ(alone.load(), 2);
}

// The first exception stops handing out jobs and is rethrown after all
// threads finish; stop() ends the handing out too. One thread makes the
// counts exact (with more, each may finish the job it already holds).
TEST(WorkPool, AnExceptionOrAStopEndsTheHandingOut) {
  int ran = 0;
  EXPECT_THROW(run_jobs(1000, 1,
                        [&](int index, int) {
                          ++ran;
                          if (index == 5) throw std::runtime_error("job 5 failed");
                        }),
               std::runtime_error);
  EXPECT_EQ(ran, 6);
  int done = 0;
  run_jobs(1000, 1, [&](int, int) { ++done; }, [&] { return done >= 10; });
  EXPECT_EQ(done, 10);
  // With several threads the first error still comes out, whichever thread met it.
  EXPECT_THROW(run_jobs(100, 4, [](int index, int) { if (index == 50) throw std::invalid_argument("50"); }),
               std::invalid_argument);
}

}  // namespace
}  // namespace mushroom
