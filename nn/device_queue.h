// Many searching threads, one device: a NetBackend that every self-play
// worker shares. evaluate() queues the caller's batch and waits; a server
// thread takes whatever is queued whenever it is free and sends it as one
// call of at most max_batch positions (a queued batch may be split across
// calls). The device then sees a few large batches instead of one small
// batch per worker, which is what keeps a GPU busy: on the H100 the fixed
// cost of a call is most of a 72-position batch's time, and calls on one
// stream do not overlap (nn/simulated_device.h).
//
// Each server thread has its own backend; with two on one GPU, each with
// its own stream, one launches its call while the other's kernels run. A
// server whose call would leave the device idle sends what is queued at
// once; while another server's call is on the device, it waits until a full
// call's worth is queued, so that calls stay full rather than taking the
// few queries that came back first.
//
// The pattern of KataGo's NN server threads and lc0's multiplexing backend,
// written here for this project. Results do not depend on how batches are
// merged for a backend whose outputs for a position do not depend on the
// other positions in its call (every backend here).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nn/net_eval.h"

namespace mushroom::nn {

struct DeviceQueueStats {
  int64_t calls = 0, positions = 0;  // the device's calls and the positions they held
  int max_batch = 0;
  // Seconds since the queue was made, and of those the seconds in which at
  // least one server was inside a device call (host-side packing and the
  // copies included: what "busy" means for any backend, a real GPU too).
  double seconds = 0, busy_seconds = 0;
  // Mean positions per device call over max_batch.
  double fill() const { return calls ? double(positions) / double(calls) / double(max_batch) : 0; }
  double busy_fraction() const { return seconds > 0 ? busy_seconds / seconds : 0; }
};

class DeviceQueue : public NetBackend {
 public:
  // One server thread per backend in `devices`.
  DeviceQueue(std::vector<std::shared_ptr<NetBackend>> devices, int max_batch);
  ~DeviceQueue() override;
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;

  // Thread-safe; returns once every query of this batch has its result, or
  // rethrows what the device threw for a call that held any of them.
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override;
  std::string name() const override;
  DeviceQueueStats stats() const;

 private:
  struct Request {
    Span<const NetQuery> queries;
    Span<NetEval> out;
    size_t sent = 0;  // queries taken into device calls so far
    size_t left = 0;  // queries whose results have not come back
    std::exception_ptr error;
  };
  // A run of one request's queries inside a device call.
  struct Piece {
    Request* request;
    size_t first, count;
  };
  void serve(NetBackend& device);

  std::vector<std::shared_ptr<NetBackend>> devices_;
  const int max_batch_;
  mutable std::mutex mutex_;
  std::condition_variable queued_, answered_;
  std::deque<Request*> queue_;  // requests with queries not yet sent
  size_t queued_queries_ = 0;   // their queries not yet sent
  int calls_in_flight_ = 0;     // servers inside a device call
  bool quit_ = false;
  int64_t calls_ = 0, positions_ = 0;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point made_ = Clock::now();
  Clock::time_point busy_since_{};    // when calls_in_flight_ last rose from 0
  Clock::duration busy_{};            // closed stretches with a call in flight
  std::vector<std::thread> servers_;  // last: started once the members above exist
};

}  // namespace mushroom::nn
