#include "nn/simulated_device.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace mushroom::nn {

LatencyModel::LatencyModel(std::vector<Point> points) : points_(std::move(points)) {
  if (points_.size() < 2) throw std::invalid_argument("a latency model needs at least two measured points");
  std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) { return a.batch < b.batch; });
}

LatencyModel LatencyModel::h100_6x32() {
  return LatencyModel({{1, 1169}, {64, 64 * 23.5}, {256, 256 * 11.7}, {1024, 1024 * 5.9}});
}

double LatencyModel::micros(int batch) const {
  size_t hi = 1;
  while (hi + 1 < points_.size() && points_[hi].batch < batch) ++hi;
  const Point& a = points_[hi - 1];
  const Point& b = points_[hi];
  const double t = double(batch - a.batch) / double(b.batch - a.batch);
  return std::max(0.0, a.micros + t * (b.micros - a.micros));
}

SimulatedDevice::SimulatedDevice(LatencyModel model, double time_scale, int cells)
    : model_(std::move(model)), time_scale_(time_scale), cells_(cells) {
  if (!(time_scale > 0)) throw std::invalid_argument("the simulated device's time scale must be positive");
}

void SimulatedDevice::evaluate(Span<const NetQuery> queries, Span<NetEval> out) {
  // Neutral outputs: flat priors, an even value, no margin.
  for (size_t i = 0; i < queries.size(); ++i) {
    NetEval& e = out[i];
    e.wdl[0] = e.wdl[2] = 0.45f;
    e.wdl[1] = 0.1f;
    e.margin = 0;
    e.logits.assign(size_t(queries[i].num_slots), 0.0f);
    if (queries[i].want_ownership) e.ownership.assign(size_t(cells_), 0.0f);
  }
  const auto device_time = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double, std::micro>(model_.micros(int(queries.size())) * time_scale_));
  Clock::time_point done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = Clock::now();
    if (!started_) started_ = true, first_arrival_ = now, free_at_ = now;
    const auto start = std::max(now, free_at_);  // queued behind the batches before it
    done = start + device_time;
    free_at_ = done;
    busy_seconds_ += std::chrono::duration<double>(device_time).count();
    ++batches_;
    positions_ += int64_t(queries.size());
  }
  std::this_thread::sleep_until(done);
}

DeviceStats SimulatedDevice::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  DeviceStats s;
  if (!started_) return s;
  const auto end = std::max(Clock::now(), free_at_);
  s.span_seconds = std::chrono::duration<double>(end - first_arrival_).count();
  s.busy_seconds = busy_seconds_;
  s.batches = batches_;
  s.positions = positions_;
  return s;
}

}  // namespace mushroom::nn
