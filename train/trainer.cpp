#include "train/trainer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>
#include <type_traits>

#include "nn/torch_net.h"
#include "train/optimizer_state.h"
#include "util/progress.h"
#include "view/run_records.h"

namespace mushroom::train {


struct Trainer::State {
  TrainConfig config;
  torch::Device device{torch::kCPU};
  nn::TorchNet net{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::string optimizer_path;
  int64_t samples_seen = 0;
  Rng rng{1};
};

Trainer::Trainer(const TrainConfig& config, const nn::Model& start, std::string optimizer_path)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.config = config;
  s.optimizer_path = std::move(optimizer_path);
  if (config.threads > 0) torch::set_num_threads(config.threads);
  s.device = nn::parse_device(config.device);
  s.net = nn::make_torch_net(start);
  s.net->to(s.device);
  s.net->train();
  if (auto it = start.metadata.find("samples_seen"); it != start.metadata.end()) s.samples_seen = std::stoll(it->second);
  s.rng = Rng(config.seed ^ uint64_t(s.samples_seen));
  torch::manual_seed(int64_t(config.seed ^ uint64_t(s.samples_seen)));
  s.optimizer = make_optimizer_with_state(config, s.net->parameters(), s.optimizer_path, s.device);
}

Trainer::~Trainer() = default;

double learning_rate_for(const TrainConfig& config, int generation) {
  const bool decayed = config.lr_decay_generation > 0 && generation >= config.lr_decay_generation;
  return config.learning_rate * (decayed ? config.lr_decay_factor : 1.0);
}

double step_learning_rate(const TrainConfig& config, int generation, int step, int steps) {
  const double lr = learning_rate_for(config, generation);
  const double warmup = step < config.warmup_steps ? double(step + 1) / (config.warmup_steps + 1) : 1.0;
  return warmup *
         (config.lr_schedule == "cosine" ? lr * (0.1 + 0.9 * 0.5 * (1 + std::cos(M_PI * step / steps))) : lr);
}

void report_step(const TrainStats& stats) {
  char loss[48];
  std::snprintf(loss, sizeof loss, "loss %.4f", stats.step_loss);
  mushroom::progress().advance_to(stats.steps, loss);
}

TrainStats Trainer::train(const TrainingWindow& window, int steps, int generation, std::string* metrics, int log_every,
                          const std::function<void(const TrainStats&)>& progress,
                          const std::function<void(Batch&)>& retarget) {
  State& s = *state_;
  if (window.size() == 0) throw std::runtime_error("no training samples in the window");
  if (window.game != s.net->config().game)
    throw std::runtime_error("the training window holds " + nn::game_name(window.game) + " samples but the net is a " +
                             nn::describe(s.net->config()) + " net");
  TrainStats stats;
  const auto start = std::chrono::steady_clock::now();
  const int tail_from = steps - std::max(1, steps / 10);
  int tail_count = 0;
  std::vector<int> indices(s.config.batch_size);
  mushroom::progress().set_total(steps);  // the process's reporter (util/progress.h)
  for (int step = 0; step < steps; ++step) {
    const double lr = step_learning_rate(s.config, generation, step, steps);
    for (auto& group : s.optimizer->param_groups()) group.options().set_lr(lr);
    for (int& i : indices) i = int(s.rng.uniform(uint32_t(window.size())));
    Batch batch = make_batch(window, indices, s.rng, nn::feature_version_of(s.net->config())).to(s.device);
    if (retarget) retarget(batch);
    s.optimizer->zero_grad();
    const LossTerms terms = compute_loss(s.net, batch, s.config.loss);
    terms.total.backward();
    const bool log_now = (metrics || progress) && (step % log_every == 0 || step + 1 == steps);
    // The norm is what a person looks for first when a run's loss jumps: it
    // is taken at every step the clip needs it, else only where it is logged.
    if (s.config.grad_clip > 0 || log_now)
      stats.grad_norm = torch::nn::utils::clip_grad_norm_(
          s.net->parameters(), s.config.grad_clip > 0 ? s.config.grad_clip : std::numeric_limits<double>::infinity());
    if (s.config.grad_clip > 0 && stats.grad_norm > s.config.grad_clip) ++stats.clipped_steps;
    s.optimizer->step();
    s.samples_seen += s.config.batch_size;
    stats.steps = step + 1;
    stats.samples_seen = s.samples_seen;
    stats.learning_rate = lr;
    stats.step_loss = terms.total.item<double>();  // compute_loss has already synced on its terms
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (step >= tail_from) {
      ++tail_count;
      auto mean = [&](double& m, double x) { m += (x - m) / tail_count; };
      mean(stats.loss, stats.step_loss);
      mean(stats.policy, terms.policy);
      mean(stats.value, terms.value);
      mean(stats.score, terms.score);
      mean(stats.ownership, terms.ownership);
      mean(stats.policy_entropy, terms.policy_entropy);
    }
    if (metrics && log_now)
      *metrics += view::to_json_line({generation, step + 1, s.samples_seen, lr, stats.step_loss, terms.policy,
                                      terms.value, terms.score, terms.ownership, terms.policy_entropy,
                                      int64_t(window.size()), stats.grad_norm});
    if (progress && log_now) progress(stats);
    report_step(stats);
  }
  return stats;
}

nn::Model Trainer::model(const std::map<std::string, std::string>& metadata) const {
  std::map<std::string, std::string> meta = metadata;
  meta["samples_seen"] = std::to_string(state_->samples_seen);
  return nn::to_model(state_->net, meta);
}

void Trainer::save_optimizer() const { save_optimizer_state(*state_->optimizer, state_->optimizer_path); }

}  // namespace mushroom::train
