#include "nn/simulated_device.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace mushroom::nn {

LatencyModel::LatencyModel(std::vector<Point> points, double launch_gap_micros)
    : points_(std::move(points)), launch_gap_micros_(launch_gap_micros) {
  if (points_.size() < 2) throw std::invalid_argument("a latency model needs at least two measured points");
  if (!(launch_gap_micros >= 0)) throw std::invalid_argument("a latency model's launch gap must not be negative");
  std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) { return a.batch < b.batch; });
}

LatencyModel LatencyModel::h100_6x32() {
  return LatencyModel({{1, 1169}, {64, 64 * 23.5}, {256, 256 * 11.7}, {1024, 1024 * 5.9}}, 860);
}

double LatencyModel::micros(int batch) const {
  size_t hi = 1;
  while (hi + 1 < points_.size() && points_[hi].batch < batch) ++hi;
  const Point& a = points_[hi - 1];
  const Point& b = points_[hi];
  const double t = double(batch - a.batch) / double(b.batch - a.batch);
  return std::max(launch_gap_micros_, a.micros + t * (b.micros - a.micros));
}

double LatencyModel::kernel_micros(int batch) const { return micros(batch) - launch_gap_micros_; }

class SimulatedDevice::Stream : public NetBackend {
 public:
  Stream(SimulatedDevice& device, int index) : device_(device), index_(index) {}
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override { device_.run(index_, queries, out); }
  std::string name() const override { return "simulated device, stream " + std::to_string(index_); }

 private:
  SimulatedDevice& device_;
  int index_;
};

SimulatedDevice::SimulatedDevice(LatencyModel model, double time_scale, int cells)
    : model_(std::move(model)), time_scale_(time_scale), cells_(cells) {
  if (!(time_scale > 0)) throw std::invalid_argument("the simulated device's time scale must be positive");
}

std::shared_ptr<NetBackend> SimulatedDevice::new_stream() {
  std::lock_guard<std::mutex> lock(mutex_);
  stream_free_at_.emplace_back();
  return std::make_shared<Stream>(*this, int(stream_free_at_.size()) - 1);
}

void SimulatedDevice::evaluate(Span<const NetQuery> queries, Span<NetEval> out) { run(0, queries, out); }

void SimulatedDevice::run(int stream, Span<const NetQuery> queries, Span<NetEval> out) {
  // Neutral outputs: flat priors, an even value, no margin.
  for (size_t i = 0; i < queries.size(); ++i) {
    NetEval& e = out[i];
    e.wdl[0] = e.wdl[2] = 0.45f;
    e.wdl[1] = 0.1f;
    e.margin = 0;
    e.logits.assign(size_t(queries[i].num_slots), 0.0f);
    if (queries[i].want_ownership) e.ownership.assign(size_t(cells_), 0.0f);
  }
  const int batch = int(queries.size());
  auto scaled = [&](double micros) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::micro>(micros * time_scale_));
  };
  const Clock::duration launch = scaled(model_.launch_gap_micros()), kernels = scaled(model_.kernel_micros(batch));
  Clock::time_point done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = Clock::now();
    if (!started_) started_ = true, first_arrival_ = now, kernels_free_at_ = now;
    Clock::time_point& stream_free_at = stream_free_at_[size_t(stream)];
    const auto start = std::max(now, stream_free_at);  // behind this stream's earlier calls
    done = std::max(start + launch, kernels_free_at_) + kernels;  // then behind every stream's kernels
    kernels_free_at_ = stream_free_at = done;
    busy_seconds_ += std::chrono::duration<double>(kernels).count();
    ++batches_;
    positions_ += batch;
  }
  std::this_thread::sleep_until(done);
}

DeviceStats SimulatedDevice::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  DeviceStats s;
  if (!started_) return s;
  const auto end = std::max(Clock::now(), kernels_free_at_);
  s.span_seconds = std::chrono::duration<double>(end - first_arrival_).count();
  s.busy_seconds = busy_seconds_;
  s.batches = batches_;
  s.positions = positions_;
  return s;
}

}  // namespace mushroom::nn
