#include "nn/device_queue.h"

#include <stdexcept>

namespace mushroom::nn {

namespace {

// Checked before the server thread starts: a constructor that threw after
// starting it would leave a joinable thread behind.
std::vector<std::shared_ptr<NetBackend>> checked(std::vector<std::shared_ptr<NetBackend>> devices, int max_batch) {
  if (devices.empty()) throw std::invalid_argument("a device queue needs a backend");
  for (const auto& d : devices)
    if (!d) throw std::invalid_argument("a device queue was given a null backend");
  if (max_batch < 1) throw std::invalid_argument("a device queue's largest batch must be at least 1");
  return devices;
}

}  // namespace

DeviceQueue::DeviceQueue(std::vector<std::shared_ptr<NetBackend>> devices, int max_batch)
    : devices_(checked(std::move(devices), max_batch)), max_batch_(max_batch) {
  for (const auto& d : devices_) servers_.emplace_back([this, device = d.get()] { serve(*device); });
}

DeviceQueue::~DeviceQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  queued_.notify_all();
  for (auto& t : servers_) t.join();
}

std::string DeviceQueue::name() const {
  return devices_[0]->name() + " (queued for " + std::to_string(devices_.size()) + " server threads, calls of up to " +
         std::to_string(max_batch_) + ")";
}

DeviceQueueStats DeviceQueue::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = Clock::now();
  const auto busy = busy_ + (calls_in_flight_ > 0 ? now - busy_since_ : Clock::duration{});
  using Seconds = std::chrono::duration<double>;
  return DeviceQueueStats{calls_, positions_, max_batch_, Seconds(now - made_).count(), Seconds(busy).count()};
}

void DeviceQueue::evaluate(Span<const NetQuery> queries, Span<NetEval> out) {
  if (queries.size() == 0) return;
  Request request{queries, out, 0, queries.size(), nullptr};
  std::unique_lock<std::mutex> lock(mutex_);
  queue_.push_back(&request);
  queued_queries_ += queries.size();
  queued_.notify_all();
  answered_.wait(lock, [&] { return request.left == 0; });
  if (request.error) std::rethrow_exception(request.error);
}

void DeviceQueue::serve(NetBackend& device) {
  std::vector<NetQuery> queries;
  std::vector<NetEval> evals;
  std::vector<Piece> pieces;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queued_.wait(lock, [&] {
      return quit_ || queued_queries_ >= size_t(max_batch_) || (queued_queries_ > 0 && calls_in_flight_ == 0);
    });
    if (queue_.empty()) return;  // quitting with nothing queued
    // Everything queued, oldest first, up to max_batch positions.
    queries.clear();
    pieces.clear();
    while (!queue_.empty() && int(queries.size()) < max_batch_) {
      Request* r = queue_.front();
      const size_t count = std::min(r->queries.size() - r->sent, size_t(max_batch_) - queries.size());
      pieces.push_back({r, r->sent, count});
      for (size_t i = 0; i < count; ++i) queries.push_back(r->queries[r->sent + i]);
      r->sent += count;
      if (r->sent == r->queries.size()) queue_.pop_front();
    }
    queued_queries_ -= queries.size();
    if (calls_in_flight_++ == 0) busy_since_ = Clock::now();
    lock.unlock();
    evals.resize(queries.size());
    std::exception_ptr error;
    try {
      device.evaluate(Span<const NetQuery>(queries.data(), queries.size()), Span<NetEval>(evals.data(), evals.size()));
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    size_t at = 0;
    for (const Piece& p : pieces) {
      for (size_t i = 0; i < p.count; ++i) p.request->out[p.first + i] = std::move(evals[at + i]);
      at += p.count;
      if (error) p.request->error = error;
      p.request->left -= p.count;
    }
    ++calls_;
    positions_ += int64_t(queries.size());
    if (--calls_in_flight_ == 0) busy_ += Clock::now() - busy_since_;
    answered_.notify_all();
    queued_.notify_all();  // a waiting server may now be the only one left to keep the device busy
  }
}

}  // namespace mushroom::nn
