#include "nn/device_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace mushroom::nn {
namespace {

// Answers each query from its own inputs (margin = first plane value, one
// logit per slot = the slot), records every call's size, and throws for a
// call that holds a query whose first plane value is negative.
class EchoBackend : public NetBackend {
 public:
  explicit EchoBackend(std::chrono::microseconds delay = {}) : delay_(delay) {}
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes.push_back(int(queries.size()));
      threads.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(delay_);
    for (size_t i = 0; i < queries.size(); ++i) {
      if (queries[i].planes[0] < 0) throw std::runtime_error("a poisoned position");
      out[i].margin = queries[i].planes[0];
      out[i].logits.assign(queries[i].slots, queries[i].slots + queries[i].num_slots);
    }
  }
  std::string name() const override { return "echo"; }
  std::vector<int> sizes;
  std::set<std::thread::id> threads;

 private:
  std::chrono::microseconds delay_;
  std::mutex mutex_;
};

// A caller's batch: n queries whose answers name the caller and the query.
struct Batch {
  std::vector<float> planes;
  std::vector<int32_t> slots;
  std::vector<NetQuery> queries;
  std::vector<NetEval> out;
  Batch(int caller, int n) : planes(size_t(n)), slots(size_t(n)), queries(size_t(n)), out(size_t(n)) {
    for (int i = 0; i < n; ++i) {
      planes[size_t(i)] = float(caller * 1000 + i);
      slots[size_t(i)] = caller * 1000 + i;
      queries[size_t(i)] = NetQuery{&planes[size_t(i)], &slots[size_t(i)], 1, false};
    }
  }
  void check(int caller) const {
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i].margin, float(caller * 1000 + int(i)));
      ASSERT_EQ(out[i].logits.size(), 1u);
      EXPECT_EQ(out[i].logits[0], float(caller * 1000 + int(i)));
    }
  }
};

std::vector<std::shared_ptr<NetBackend>> one(std::shared_ptr<NetBackend> b) { return {std::move(b)}; }

TEST(DeviceQueue, EveryCallerGetsItsOwnAnswersFromMergedCalls) {
  auto echo = std::make_shared<EchoBackend>(std::chrono::microseconds(300));
  DeviceQueue queue(one(echo), 64);
  constexpr int kCallers = 12, kRounds = 20;
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int r = 0; r < kRounds; ++r) {
        Batch batch(c, 1 + (c + r) % 9);
        queue.evaluate(batch.queries, batch.out);
        batch.check(c);
      }
    });
  for (auto& t : callers) t.join();
  int positions = 0;
  bool merged = false;
  for (int size : echo->sizes) {
    EXPECT_LE(size, 64);
    positions += size;
    merged |= size > 9;  // more than any one caller's batch
  }
  const DeviceQueueStats stats = queue.stats();
  EXPECT_EQ(stats.positions, positions);
  EXPECT_EQ(stats.calls, int64_t(echo->sizes.size()));
  EXPECT_TRUE(merged) << "twelve callers behind a slow device never shared a call";
  EXPECT_GT(stats.fill(), 0.0);
  EXPECT_LE(stats.fill(), 1.0);
}

TEST(DeviceQueue, ABatchLargerThanTheLargestCallIsSplitInOrder) {
  auto echo = std::make_shared<EchoBackend>();
  DeviceQueue queue(one(echo), 4);
  Batch batch(3, 10);
  queue.evaluate(batch.queries, batch.out);
  batch.check(3);
  EXPECT_EQ(echo->sizes, (std::vector<int>{4, 4, 2}));
}

TEST(DeviceQueue, TwoServerThreadsBothSendCalls) {
  auto a = std::make_shared<EchoBackend>(std::chrono::microseconds(2000));
  auto b = std::make_shared<EchoBackend>(std::chrono::microseconds(2000));
  DeviceQueue queue({a, b}, 8);
  std::vector<std::thread> callers;
  for (int c = 0; c < 8; ++c)
    callers.emplace_back([&, c] {
      for (int r = 0; r < 10; ++r) {
        Batch batch(c, 6);
        queue.evaluate(batch.queries, batch.out);
        batch.check(c);
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_FALSE(a->sizes.empty());
  EXPECT_FALSE(b->sizes.empty());
  EXPECT_EQ(a->threads.size(), 1u);
  EXPECT_EQ(b->threads.size(), 1u);
  EXPECT_NE(*a->threads.begin(), *b->threads.begin());
}

// Busy time is the time with a call on the device: each call's own time
// counts, and time with nothing queued does not. Only bounds that sleeps
// guarantee are checked.
TEST(DeviceQueue, BusyTimeCountsCallsOnTheDeviceAndNotIdleTime) {
  auto echo = std::make_shared<EchoBackend>(std::chrono::milliseconds(20));
  DeviceQueue queue(one(echo), 8);
  EXPECT_EQ(queue.stats().busy_seconds, 0.0);
  for (int r = 0; r < 5; ++r) {
    Batch batch(1, 3);
    queue.evaluate(batch.queries, batch.out);
  }
  const double busy = queue.stats().busy_seconds;
  EXPECT_GE(busy, 0.1) << "five 20 ms calls";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const DeviceQueueStats idle = queue.stats();
  EXPECT_EQ(idle.busy_seconds, busy) << "busy time grew with no call on the device";
  EXPECT_GE(idle.seconds - idle.busy_seconds, 0.1);
  EXPECT_GT(idle.busy_fraction(), 0.0);
  EXPECT_LT(idle.busy_fraction(), 1.0);
}

// A failing call fails the callers whose queries it held, with the device's
// own message; the queue goes on serving.
TEST(DeviceQueue, ADevicesErrorReachesItsCallersAndTheQueueGoesOn) {
  auto echo = std::make_shared<EchoBackend>();
  DeviceQueue queue(one(echo), 16);
  Batch poisoned(1, 3);
  poisoned.planes[1] = -1;
  try {
    queue.evaluate(poisoned.queries, poisoned.out);
    FAIL() << "the device's error was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "a poisoned position");
  }
  Batch fine(2, 5);
  queue.evaluate(fine.queries, fine.out);
  fine.check(2);
}

TEST(DeviceQueue, BadSettingsAreErrorsThatNameThem) {
  try {
    DeviceQueue queue(one(std::make_shared<EchoBackend>()), 0);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("largest batch"), std::string::npos) << e.what();
  }
  EXPECT_THROW(DeviceQueue(std::vector<std::shared_ptr<NetBackend>>{}, 8), std::invalid_argument);
  EXPECT_THROW(DeviceQueue(one(nullptr), 8), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom::nn
