// `mushroom bench nn`: the network's speed in every runtime, side by side in
// one process: CPU (Eigen) batch-1 latency, LibTorch batch-1 latency,
// LibTorch batched throughput, and training steps per second.
#include <chrono>
#include <cstdio>

#include "cli/bench_report.h"
#include "cli/command.h"
#include "mushroom/playout_positions.h"
#include "nn/cpu_net.h"
#include "nn/plain_net.h"
#include "nn/features.h"
#include "nn/model_file.h"
#include "nn/torch_backend.h"
#include "mushroom/mushroom_game.h"
#include "train/loss.h"

namespace mushroom::cli {

namespace {

using SteadyClock = std::chrono::steady_clock;

struct Query {
  Position position;
  std::vector<Move> moves;
};

std::vector<Query> bench_queries(int count) {
  std::vector<Query> out;
  for (const Position& p : playout_positions(count, 2024)) {
    Query q{p, std::vector<Move>(MushroomGame::kMaxActions)};
    q.moves.resize(MushroomGame::legal_actions(p, q.moves.data()));
    if (q.moves.size() > 1) out.push_back(std::move(q));
  }
  return out;
}

// Runs fn (which evaluates `per_call` positions) until `seconds` pass;
// returns microseconds per position.
template <typename Fn>
double time_per_position(double seconds, int per_call, Fn&& fn) {
  fn();  // warm-up
  const auto start = SteadyClock::now();
  long positions = 0;
  double elapsed = 0;
  do {
    fn();
    positions += per_call;
    elapsed = std::chrono::duration<double>(SteadyClock::now() - start).count();
  } while (elapsed < seconds);
  return elapsed * 1e6 / double(positions);
}

double torch_us_per_position(nn::NetBackend& backend, const std::vector<Query>& queries, int batch, double seconds) {
  std::vector<float> planes(size_t(batch) * nn::kInputSize);
  std::vector<std::vector<int32_t>> slots(static_cast<size_t>(batch));
  std::vector<nn::NetQuery> q(static_cast<size_t>(batch));
  std::vector<nn::NetEval> out(q.size());
  // Encoding is timed with the call, as the search pays for it.
  return time_per_position(seconds, batch, [&] {
    for (int i = 0; i < batch; ++i) {
      const Query& src = queries[size_t(i) % queries.size()];
      nn::encode_features(src.position, planes.data() + size_t(i) * nn::kInputSize);
      slots[size_t(i)].resize(src.moves.size());
      for (size_t k = 0; k < src.moves.size(); ++k) slots[size_t(i)][k] = src.moves[k].index();
      q[size_t(i)] = {planes.data() + size_t(i) * nn::kInputSize, slots[size_t(i)].data(), int(src.moves.size())};
    }
    backend.evaluate(q, out);
  });
}

// A training batch from the queries with uniform policy targets (speed does
// not depend on the targets' values).
train::Batch training_batch(const std::vector<Query>& queries, int batch) {
  int64_t L = 1;
  for (int i = 0; i < batch; ++i) L = std::max<int64_t>(L, queries[i % queries.size()].moves.size());
  train::Batch b;
  b.planes = torch::empty({batch, nn::kInputPlanes, kRows, kCols});
  b.moves = torch::zeros({batch, L}, torch::kInt64);
  b.move_mask = torch::zeros({batch, L}, torch::kBool);
  b.policy_target = torch::zeros({batch, L});
  for (int i = 0; i < batch; ++i) {
    const Query& q = queries[i % queries.size()];
    nn::encode_features(q.position, b.planes[i].data_ptr<float>());
    for (size_t k = 0; k < q.moves.size(); ++k) {
      b.moves[i][k] = q.moves[k].index();
      b.move_mask[i][k] = true;
      b.policy_target[i][k] = 1.0f / float(q.moves.size());
    }
  }
  b.wdl_target = torch::zeros({batch}, torch::kInt64);
  b.score_target = torch::zeros({batch});
  b.ownership_target = torch::zeros({batch, kCells});
  b.weight = torch::ones({batch});
  return b;
}

}  // namespace

int cmd_bench_nn(int argc, char** argv) {
  cxxopts::Options opts("mushroom bench nn",
                        "Network speed, every runtime in one run on the same positions (playout positions with "
                        "their legal moves): CPU (Eigen) batch-1 latency, LibTorch batch-1 latency with its default "
                        "threads and with one thread, LibTorch throughput at batch 64 and 256, and training steps "
                        "per second. Weights are random unless --model is given (speed does not depend on them).");
  opts.add_options()("model", "model file (default: random weights of the size below)", cxxopts::value<std::string>())(
      "blocks", "residual blocks", cxxopts::value<int>()->default_value("6"))(
      "channels", "trunk channels", cxxopts::value<int>()->default_value("32"))(
      "policy-dim", "policy embedding size", cxxopts::value<int>()->default_value("32"))(
      "value-hidden", "value head hidden units", cxxopts::value<int>()->default_value("64"))(
      "device", "LibTorch device: cpu | cuda | cuda:N", cxxopts::value<std::string>()->default_value("cpu"))(
      "batches", "comma-separated LibTorch batch sizes", cxxopts::value<std::vector<int>>()->default_value("64,256"))(
      "train-batch", "training batch size", cxxopts::value<int>()->default_value("256"))(
      "threads", "LibTorch intra-op threads (0: LibTorch's default)", cxxopts::value<int>()->default_value("0"))(
      "seconds", "seconds per measurement", cxxopts::value<double>()->default_value("2"))(
      "h,help", "show this help");
  add_json_option(opts, "the figures");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  BenchReport report(args, "nn");
  nn::Model model;
  if (args.count("model")) {
    model = nn::load_model(args["model"].as<std::string>());
  } else {
    const nn::NetConfig config{args["blocks"].as<int>(), args["channels"].as<int>(), args["policy-dim"].as<int>(),
                               args["value-hidden"].as<int>()};
    model = nn::random_model(config, 1);
  }
  const std::string device = args["device"].as<std::string>();
  if (args["threads"].as<int>() > 0) torch::set_num_threads(args["threads"].as<int>());
  const double seconds = args["seconds"].as<double>();
  const auto queries = bench_queries(512);
  double mean_moves = 0;
  for (const Query& q : queries) mean_moves += double(q.moves.size()) / double(queries.size());
  std::printf("net=%s parameters=%lld positions=%zu mean_legal_moves=%.1f device=%s torch_threads=%d\n",
              nn::describe(model.config).c_str(), (long long)model.parameter_count(), queries.size(), mean_moves,
              device.c_str(), torch::get_num_threads());
  report.setting("net", nn::describe(model.config));
  report.setting("parameters", model.parameter_count());
  report.setting("device", device);
  report.setting("torch_threads", torch::get_num_threads());
  // A runtime's line, and its row for --json.
  auto runtime = [&](const std::string& name, double us) {
    std::printf("%-34s %10.1f us/position %10.0f positions/s\n", name.c_str(), us, 1e6 / us);
    report.row("runtimes", {{"runtime", name}, {"us_per_position", us}, {"positions_per_second", 1e6 / us}});
  };

  nn::CpuNet cpu(model);
  size_t next = 0;
  nn::NetEval eval;
  const double cpu_us = time_per_position(seconds, 1, [&] {
    const Query& q = queries[next++ % queries.size()];
    cpu.evaluate(q.position, q.moves.data(), int(q.moves.size()), eval);
  });
  runtime("cpu-eigen batch 1 (1 thread)", cpu_us);
  nn::PlainNet plain(model);
  const double plain_us = time_per_position(seconds, 1, [&] {
    const Query& q = queries[next++ % queries.size()];
    plain.evaluate(q.position, q.moves.data(), int(q.moves.size()), eval);
  });
  runtime("cpu-plain batch 1 (exported bot)", plain_us);

  const int default_threads = torch::get_num_threads();
  auto torch_backend = nn::make_torch_backend(model, device);
  const double torch1_us = torch_us_per_position(*torch_backend, queries, 1, seconds);
  runtime("libtorch batch 1 (" + std::to_string(default_threads) + " threads)", torch1_us);
  double torch1_single_us = torch1_us;
  if (device == "cpu" && default_threads != 1) {
    torch::set_num_threads(1);
    torch1_single_us = torch_us_per_position(*torch_backend, queries, 1, seconds);
    torch::set_num_threads(default_threads);
    runtime("libtorch batch 1 (1 thread)", torch1_single_us);
  }
  std::printf("speedup cpu-eigen vs libtorch batch 1: %.1fx (%d threads), %.1fx (1 thread)\n", torch1_us / cpu_us,
              default_threads, torch1_single_us / cpu_us);
  for (int batch : args["batches"].as<std::vector<int>>()) {
    if (batch < 1) throw std::invalid_argument("--batches: sizes must be positive");
    const double us = torch_us_per_position(*torch_backend, queries, batch, seconds);
    runtime("libtorch batch " + std::to_string(batch), us);
  }

  const int train_batch = args["train-batch"].as<int>();
  const torch::Device dev = nn::parse_device(device);
  nn::TorchNet net = nn::make_torch_net(model);
  net->to(dev);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(1e-3).momentum(0.9));
  const train::Batch batch = training_batch(queries, train_batch).to(dev);
  const double step_us = time_per_position(seconds, 1, [&] {
    opt.zero_grad();
    train::compute_loss(net, batch, {}).total.backward();
    opt.step();
  });
  std::printf("%-34s %10.1f ms/step %10.1f steps/s %8.0f samples/s\n",
              ("training batch " + std::to_string(train_batch)).c_str(), step_us / 1000, 1e6 / step_us,
              1e6 / step_us * train_batch);
  report.figure("cpu_eigen_us_per_position", cpu_us);
  report.figure("libtorch_batch1_us_per_position", torch1_us);
  report.figure("train_steps_per_second", 1e6 / step_us);
  report.figure("train_samples_per_second", 1e6 / step_us * train_batch);
  report.write();
  return 0;
}

}  // namespace mushroom::cli
