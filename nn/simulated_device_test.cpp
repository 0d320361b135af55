#include "nn/simulated_device.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mushroom::nn {
namespace {

// The H100 model reproduces its source figures (nn/simulated_device.h) and
// the calibration of its launch gap.
TEST(SimulatedDevice, TheH100ModelHoldsItsMeasuredPoints) {
  const LatencyModel m = LatencyModel::h100_6x32();
  EXPECT_DOUBLE_EQ(m.micros(1), 1169);
  EXPECT_NEAR(m.micros(64), 64 * 23.5, 1e-9);
  EXPECT_NEAR(m.micros(1024), 1024 * 5.9, 1e-9);
  EXPECT_NEAR(m.kernel_micros(1), 309, 1e-9);
  // The box's mean batch of 72: kernels 45% of the call, as nvidia-smi showed.
  EXPECT_NEAR(m.kernel_micros(72) / m.micros(72), 0.45, 0.005);
  // Past the last point, the last segment's slope.
  EXPECT_NEAR(m.micros(2048) - m.micros(1024), 1024 * (1024 * 5.9 - 256 * 11.7) / 768, 1e-6);
  // Larger batches spend a larger share running kernels.
  EXPECT_GT(m.kernel_micros(1024) / m.micros(1024), m.kernel_micros(72) / m.micros(72));
}

TEST(SimulatedDevice, BadModelsAreErrors) {
  EXPECT_THROW(LatencyModel({{1, 10}}, 0), std::invalid_argument);
  EXPECT_THROW(LatencyModel({{1, 10}, {2, 20}}, -1), std::invalid_argument);
  EXPECT_THROW(SimulatedDevice(LatencyModel::h100_6x32(), 0, 170), std::invalid_argument);
}

// Every call, on any stream, adds its kernel time to the busy time and
// answers each query with neutral outputs of the asked size.
TEST(SimulatedDevice, CallsOnEveryStreamAreAnsweredAndCounted) {
  const LatencyModel m = LatencyModel::h100_6x32();
  SimulatedDevice device(m, 0.01, 170);
  auto stream = device.new_stream();
  float planes[1] = {0};
  int32_t slots[3] = {1, 2, 3};
  std::vector<NetQuery> queries(5, NetQuery{planes, slots, 3, true});
  std::vector<NetEval> out(5);
  device.evaluate(queries, out);
  stream->evaluate(Span<const NetQuery>(queries.data(), 2), Span<NetEval>(out.data(), 2));
  for (const NetEval& e : out) {
    EXPECT_EQ(e.logits.size(), 3u);
    EXPECT_EQ(e.ownership.size(), 170u);
    EXPECT_NEAR(e.wdl[0] + e.wdl[1] + e.wdl[2], 1.0f, 1e-6);
  }
  const DeviceStats s = device.stats();
  EXPECT_EQ(s.batches, 2);
  EXPECT_EQ(s.positions, 7);
  EXPECT_NEAR(s.busy_seconds, (m.kernel_micros(5) + m.kernel_micros(2)) * 0.01e-6, 1e-9);
  EXPECT_GT(s.span_seconds, 0);
  EXPECT_NE(stream->name(), device.name());
}

}  // namespace
}  // namespace mushroom::nn
