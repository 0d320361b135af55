#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cli/command.h"
#include "mushroom/alphabeta.h"
#include "mushroom/position_io.h"

namespace mushroom::cli {

namespace {

// Buckets of mushrooms left, as the endgame issue measures reach.
struct Bucket {
  const char* name;
  int lo, hi;  // mushrooms left, inclusive
};
constexpr Bucket kBuckets[] = {
    {"<=89", 0, 89}, {"90-104", 90, 104}, {"105-119", 105, 119}, {"120-134", 120, 134}, {">=135", 135, 1 << 20}};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int cmd_bench_endgame(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom bench endgame",
      "How far the exact endgame search reaches: solves every position (one per file, in the position text "
      "format, mushroom/position_io.h, which may give the side to move) under a time limit each, one core, and "
      "prints, by bucket of mushrooms left, the positions, the fraction proved and the median time (a position "
      "not proved counts at the limit). The last line is exactly proved_105_119=<fraction> "
      "proved_120_134=<fraction> median_ms=<float>, the median over every position (an empty bucket's fraction "
      "is 0).");
  opts.add_options()("positions", "position files (repeatable; or several after the option's first)",
                     cxxopts::value<std::vector<std::string>>())(
      "ms", "time limit per position in milliseconds", cxxopts::value<double>()->default_value("1000"))(
      "tt-bits", "the transposition table holds 2^N entries of 16 bytes", cxxopts::value<int>()->default_value("22"))(
      "wdl", "prove only win, draw or loss")("h,help", "show this help");
  opts.parse_positional({"positions"});
  opts.positional_help("[FILE...]");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  if (!args.count("positions")) throw std::invalid_argument("missing required option --positions");
  const double ms = args["ms"].as<double>();
  const int tt_bits = args["tt-bits"].as<int>();
  if (!(ms > 0)) throw std::invalid_argument("--ms must be above 0");
  if (tt_bits < 10 || tt_bits > 30) throw std::invalid_argument("--tt-bits must be in 10..30");
  const bool wdl = args.count("wdl") > 0;
  std::vector<Position> positions;
  for (const std::string& path : args["positions"].as<std::vector<std::string>>())
    positions.push_back(load_position_file(path));  // a bad file is named before any solving

  AlphaBeta solver(AlphaBetaConfig{.tt_bits = tt_bits});
  const size_t n_buckets = std::size(kBuckets);
  std::vector<std::vector<double>> times(n_buckets);
  std::vector<int> proved(n_buckets, 0);
  std::vector<double> all_times;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& pos = positions[i];
    solver.clear();  // every position from an empty table: no help from the one before
    const auto t0 = AlphaBeta::Clock::now();
    const auto deadline = t0 + std::chrono::microseconds(int64_t(ms * 1000));
    const std::optional<int> value =
        wdl ? solver.solve_window(pos, -1, 1, 0, nullptr, deadline) : solver.solve_exact(pos, 0, nullptr, deadline);
    const double elapsed =
        value ? std::chrono::duration<double, std::milli>(AlphaBeta::Clock::now() - t0).count() : ms;
    const int left = pos.mushrooms_left();
    for (size_t b = 0; b < n_buckets; ++b)
      if (left >= kBuckets[b].lo && left <= kBuckets[b].hi) {
        times[b].push_back(elapsed);
        proved[b] += value.has_value();
      }
    all_times.push_back(elapsed);
    if ((i + 1) % 25 == 0 || i + 1 == positions.size())
      std::fprintf(stderr, "bench endgame: %zu/%zu positions\n", i + 1, positions.size());
  }
  std::printf("%-8s %9s %8s %10s   (%s, %.0f ms a position, 2^%d table)\n", "left", "positions", "proved",
              "median_ms", wdl ? "win/draw/loss" : "exact margin", ms, tt_bits);
  auto fraction = [&](size_t b) { return times[b].empty() ? 0.0 : double(proved[b]) / double(times[b].size()); };
  for (size_t b = 0; b < n_buckets; ++b)
    std::printf("%-8s %9zu %8.3f %10.1f\n", kBuckets[b].name, times[b].size(), fraction(b), median(times[b]));
  std::printf("proved_105_119=%.3f proved_120_134=%.3f median_ms=%.1f\n", fraction(2), fraction(3),
              median(all_times));
  return 0;
}

}  // namespace mushroom::cli
