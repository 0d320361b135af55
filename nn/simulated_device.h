// A stand-in for a GPU, so that self-play's use of one can be built, tested
// and measured on a machine without one: a NetBackend that takes as long as
// the real device would for each batch, by a latency model fitted to
// measured figures, and answers with neutral outputs (no net is run, so the
// host's cores stay free for the search, as they would beside a GPU).
//
// A call first launches its kernels (a fixed launch gap, host work in the
// calling thread during which the GPU runs nothing of this call), then its
// kernels run on the device. Calls on one stream follow each other; kernels
// of all streams take turns on the device. The H100 box showed both parts:
// its 12 workers, all on the default stream, sent batches of 72 positions on
// average and evaluated 46,300 positions a second, which is 72 positions
// every 1.56 ms, exactly one single-threaded call's time for that batch
// back to back; yet `nvidia-smi` showed kernels running only 40-50% of that
// time. With calls on two streams, one call's launch gap overlaps the
// other's kernels. busy_fraction() is the share of time kernels run, which
// is what `nvidia-smi` reports.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nn/net_eval.h"

namespace mushroom::nn {

// Time of one call by its batch size: piecewise linear between measured
// points (batch, microseconds), extended along the last segment; the first
// launch_gap microseconds of every call run no kernel.
class LatencyModel {
 public:
  struct Point {
    int batch;
    double micros;
  };
  LatencyModel(std::vector<Point> points, double launch_gap_micros);
  // The 6x32 net (cpu-small and gpu-small's) on one H100 with PyTorch 2.11's
  // LibTorch, `mushroom bench nn --device cuda` (docs/history/issue-06-selfplay-and-training-cpu.md, "On a GPU
  // box"): batch 1 1,169 us; 64 at 23.5 us a position; 256 at 11.7; 1024 at
  // 5.9. The launch gap, 860 us, is what makes kernels run 45% of a
  // 72-position call (1,566 us), the box's `nvidia-smi` figure for its mean
  // batch; it leaves 309 us of kernels in a 1-position call.
  static LatencyModel h100_6x32();
  double micros(int batch) const;
  double launch_gap_micros() const { return launch_gap_micros_; }
  // The part of micros(batch) in which kernels run.
  double kernel_micros(int batch) const;

 private:
  std::vector<Point> points_;
  double launch_gap_micros_;
};

struct DeviceStats {
  double busy_seconds = 0;  // time kernels ran
  double span_seconds = 0;  // from the first call's arrival to now
  int64_t batches = 0, positions = 0;
  // What `nvidia-smi` calls utilization: the share of time a kernel runs.
  double busy_fraction() const { return span_seconds > 0 ? busy_seconds / span_seconds : 0; }
  double mean_batch() const { return batches ? double(positions) / double(batches) : 0; }
};

class SimulatedDevice : public NetBackend {
 public:
  // time_scale stretches every call: a box whose search threads have C cores,
  // simulated on c cores, keeps its balance of search and device time at
  // time_scale = C / c. evaluate() runs on the default stream, which every
  // caller shares.
  SimulatedDevice(LatencyModel model, double time_scale, int cells);
  void evaluate(Span<const NetQuery> queries, Span<NetEval> out) override;
  std::string name() const override { return "simulated device"; }
  // A backend on a stream of its own on this device.
  std::shared_ptr<NetBackend> new_stream();
  DeviceStats stats() const;

 private:
  using Clock = std::chrono::steady_clock;
  void run(int stream, Span<const NetQuery> queries, Span<NetEval> out);
  class Stream;

  LatencyModel model_;
  double time_scale_;
  int cells_;  // ownership values per position
  mutable std::mutex mutex_;
  bool started_ = false;
  Clock::time_point first_arrival_, kernels_free_at_;
  std::vector<Clock::time_point> stream_free_at_{1};  // stream 0: the default one
  double busy_seconds_ = 0;
  int64_t batches_ = 0, positions_ = 0;
};

}  // namespace mushroom::nn
