// A stand-in for a GPU, so that self-play's use of one can be built, tested
// and measured on a machine without one: a NetBackend that takes as long as
// the real device would for each batch, by a latency model fitted to
// measured figures, and answers with neutral outputs (no net is run, so the
// host's cores stay free for the search, as they would beside a GPU).
//
// The device is one resource: batches from every worker queue for it, one
// at a time, as kernels do on one GPU. It records how much of the time it
// was busy, which on the real box `nvidia-smi` reports.
#pragma once
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "nn/net_eval.h"

namespace mushroom::nn {

// Device time of one batch by its size: piecewise linear between measured
// points (batch, microseconds), extended along the last segment.
class LatencyModel {
 public:
  struct Point {
    int batch;
    double micros;
  };
  explicit LatencyModel(std::vector<Point> points);
  // The 6x32 net (cpu-small and gpu-small's) on one H100 with PyTorch 2.11's
  // LibTorch, `mushroom bench nn --device cuda` (BENCHMARKS.md, "On a GPU
  // box"): batch 1 1,169 us; 64 at 23.5 us a position; 256 at 11.7; 1024 at 5.9.
  static LatencyModel h100_6x32();
  double micros(int batch) const;

 private:
  std::vector<Point> points_;
};

struct DeviceStats {
  double busy_seconds = 0;  // device time spent on batches
  double span_seconds = 0;  // from the first batch's arrival to now
  int64_t batches = 0, positions = 0;
  double busy_fraction() const { return span_seconds > 0 ? busy_seconds / span_seconds : 0; }
  double mean_batch() const { return batches ? double(positions) / double(batches) : 0; }
};

class SimulatedDevice : public NetBackend {
 public:
  // time_scale stretches every batch: a box with C cores simulated on c
  // cores keeps its balance of search and device time at time_scale = C / c.
  SimulatedDevice(LatencyModel model, double time_scale, int cells);
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override;
  std::string name() const override { return "simulated device"; }
  DeviceStats stats() const;

 private:
  using Clock = std::chrono::steady_clock;
  LatencyModel model_;
  double time_scale_;
  int cells_;  // ownership values per position
  mutable std::mutex mutex_;
  bool started_ = false;
  Clock::time_point first_arrival_, free_at_;
  double busy_seconds_ = 0;
  int64_t batches_ = 0, positions_ = 0;
};

}  // namespace mushroom::nn
