#include "util/work_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mushroom {

void run_jobs(int count, int threads, const std::function<void(int index, int slot)>& job,
              const std::function<bool()>& stop) {
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr first_error;
  auto worker = [&](int slot) {
    while (!failed.load() && !(stop && stop())) {
      const int index = next.fetch_add(1);
      if (index >= count) return;
      try {
        job(index, slot);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  const int n = std::min(std::max(1, threads), std::max(0, count));
  for (int slot = 0; slot < n; ++slot) pool.emplace_back(worker, slot);
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace mushroom
