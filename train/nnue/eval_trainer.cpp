#include "train/nnue/eval_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <vector>

#include "nn/torch_net.h"
#include "train/optimizer_state.h"
#include "util/progress.h"
#include "view/run_records.h"

namespace mushroom::train {

struct EvalTrainer::State {
  TrainConfig train;
  EvalNetConfig net_config;
  torch::Device device{torch::kCPU};
  EvalNet net{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::string optimizer_path;
  int64_t samples_seen = 0;
  Rng rng{1};
};

namespace {
// average = d average + (1 - d) parameters, with d ramped up over the
// first steps so the starting weights do not linger in it.
void update_average(std::vector<torch::Tensor>& average, const std::vector<torch::Tensor>& parameters, double decay,
                    int step) {
  torch::NoGradGuard no_grad;
  const double d = std::min(decay, (1.0 + step) / (10.0 + step));
  for (size_t i = 0; i < average.size(); ++i) average[i].mul_(d).add_(parameters[i].detach(), 1 - d);
}
}  // namespace

EvalTrainer::EvalTrainer(const TrainConfig& train, const EvalNetConfig& net, const nnue::Network& start,
                         int64_t samples_seen, std::string optimizer_path)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.train = train;
  s.net_config = net;
  s.optimizer_path = std::move(optimizer_path);
  s.samples_seen = samples_seen;
  if (train.threads > 0) torch::set_num_threads(train.threads);
  s.device = nn::parse_device(train.device);
  s.net = EvalNet(start);
  s.net->to(s.device);
  s.rng = Rng(train.seed ^ uint64_t(samples_seen) ^ 0xe7a1);
  torch::manual_seed(int64_t(train.seed ^ uint64_t(samples_seen)));
  s.optimizer = make_optimizer_with_state(train, s.net->parameters(), s.optimizer_path, s.device);
}

EvalTrainer::~EvalTrainer() = default;

TrainStats EvalTrainer::train(const EvalWindow& window, const EvalSampler& sampler, int steps, int generation,
                              std::string* metrics, int log_every,
                              const std::function<void(const TrainStats&)>& progress) {
  State& s = *state_;
  if (window.size() == 0) throw std::runtime_error("no training samples in the window");
  TrainStats stats;
  const auto start = std::chrono::steady_clock::now();
  const int tail_from = steps - std::max(1, steps / 10);
  int tail_count = 0;
  // Batches are made on another thread, one ahead of the step.
  const auto next_batch = [&s, &window, &sampler](uint64_t seed) {
    Rng rng(seed);
    std::vector<int> indices(size_t(s.train.batch_size));
    for (int& i : indices) i = sampler.draw(rng);
    return make_eval_batch(window.records, indices, rng);
  };
  std::future<EvalBatch> pending = std::async(std::launch::async, next_batch, s.rng.next_u64());
  // evalnet.ema_decay's running average of the parameters over this
  // call's steps (empty: off).
  const std::vector<torch::Tensor> parameters = s.net->parameters();
  std::vector<torch::Tensor> average;
  if (s.net_config.ema_decay > 0) {
    torch::NoGradGuard no_grad;
    for (const torch::Tensor& p : parameters) average.push_back(p.detach().clone());
  }
  mushroom::progress().set_total(steps);  // the process's reporter (util/progress.h)
  for (int step = 0; step < steps; ++step) {
    const double lr = step_learning_rate(s.train, generation, step, steps);
    for (auto& group : s.optimizer->param_groups()) group.options().set_lr(lr);
    const auto wait_start = std::chrono::steady_clock::now();
    const EvalBatch batch = pending.get().to(s.device);
    stats.input_wait_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
    if (step + 1 < steps) pending = std::async(std::launch::async, next_batch, s.rng.next_u64());
    s.optimizer->zero_grad();
    const torch::Tensor loss = eval_loss(s.net->forward(batch), batch, s.net_config);
    loss.backward();
    s.optimizer->step();
    s.net->clip_to_runtime_ranges();
    if (!average.empty()) update_average(average, parameters, s.net_config.ema_decay, step);
    s.samples_seen += s.train.batch_size;
    stats.steps = step + 1;
    stats.samples_seen = s.samples_seen;
    stats.learning_rate = lr;
    stats.step_loss = loss.item<double>();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (step >= tail_from) {
      ++tail_count;
      stats.loss += (stats.step_loss - stats.loss) / tail_count;
      stats.value = stats.loss;
    }
    const bool log_now = (metrics || progress) && (step % log_every == 0 || step + 1 == steps);
    if (metrics && log_now)
      *metrics += view::to_json_line({generation, step + 1, s.samples_seen, lr, stats.step_loss, 0, stats.step_loss, 0,
                                      0, 0, int64_t(window.size())});
    if (progress && log_now) progress(stats);
    report_step(stats);
  }
  if (!average.empty()) {
    // The average becomes the net (inside the runtime's ranges, as each
    // averaged step was): what model(), loss_on and the next train() see.
    // The optimizer's state stays the last step's.
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(average[i]);
    s.net->clip_to_runtime_ranges();
  }
  return stats;
}

double EvalTrainer::loss_on(const std::vector<EvalRecord>& records, const std::vector<int>& indices) {
  State& s = *state_;
  torch::NoGradGuard no_grad;
  Rng rng(1);
  const EvalBatch batch = make_eval_batch(records, indices, rng).to(s.device);
  return eval_loss(s.net->forward(batch), batch, s.net_config).item<double>();
}

nnue::Network EvalTrainer::model() const { return state_->net->to_model(); }

void EvalTrainer::save_optimizer() const { save_optimizer_state(*state_->optimizer, state_->optimizer_path); }

}  // namespace mushroom::train
