#include "train/trainer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <type_traits>

#include "nn/torch_net.h"
#include "view/run_records.h"

namespace mushroom::train {

namespace {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainConfig& config,
                                                        const std::vector<torch::Tensor>& parameters) {
  if (config.optimizer == "adam")
    return std::make_unique<torch::optim::Adam>(
        parameters, torch::optim::AdamOptions(config.learning_rate).weight_decay(config.weight_decay));
  return std::make_unique<torch::optim::SGD>(
      parameters,
      torch::optim::SGDOptions(config.learning_rate).momentum(config.momentum).weight_decay(config.weight_decay));
}

// A state file written by another LibTorch version can load without error yet
// pair moments with the wrong parameters (seen: 1.13's file read by 2.11), so
// every per-parameter tensor is checked against its parameter's shape.
// The state map is keyed by the parameter's TensorImpl: as a printed pointer
// in LibTorch 1.13, as the pointer itself in 2.x.
template <typename StateMap>
typename StateMap::key_type state_key(const torch::Tensor& parameter) {
  if constexpr (std::is_same_v<typename StateMap::key_type, std::string>) {
    std::ostringstream key;
    key << static_cast<const void*>(parameter.unsafeGetTensorImpl());
    return key.str();
  } else {
    return parameter.unsafeGetTensorImpl();
  }
}

bool state_fits_parameters(torch::optim::Optimizer& optimizer) {
  using StateMap = std::remove_reference_t<decltype(optimizer.state())>;
  auto same_shape = [](const torch::Tensor& moment, const torch::Tensor& parameter) {
    return !moment.defined() || moment.sizes() == parameter.sizes();
  };
  for (auto& group : optimizer.param_groups()) {
    for (auto& parameter : group.params()) {
      auto found = optimizer.state().find(state_key<StateMap>(parameter));
      if (found == optimizer.state().end()) continue;
      if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(found->second.get())) {
        if (!same_shape(adam->exp_avg(), parameter) || !same_shape(adam->exp_avg_sq(), parameter)) return false;
      } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(found->second.get())) {
        if (!same_shape(sgd->momentum_buffer(), parameter)) return false;
      }
    }
  }
  return true;
}

}  // namespace

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
  s.optimizer = make_optimizer(config, s.net->parameters());
  if (!s.optimizer_path.empty() && std::filesystem::exists(s.optimizer_path)) {
    std::string problem;
    try {
      torch::serialize::InputArchive archive;
      archive.load_from(s.optimizer_path, s.device);
      s.optimizer->load(archive);
      if (!state_fits_parameters(*s.optimizer)) problem = "its moment tensors do not match the network's shapes";
    } catch (const std::exception& e) {
      problem = e.what();
      problem = problem.substr(0, problem.find('\n'));  // LibTorch appends a backtrace
    }
    if (!problem.empty()) {
      std::fprintf(stderr, "train: warning: optimizer state %s not usable (%s); starting it fresh\n",
                   s.optimizer_path.c_str(), problem.c_str());
      s.optimizer = make_optimizer(config, s.net->parameters());
    }
  }
}

Trainer::~Trainer() = default;

double learning_rate_for(const TrainConfig& config, int generation) {
  const bool decayed = config.lr_decay_generation > 0 && generation >= config.lr_decay_generation;
  return config.learning_rate * (decayed ? config.lr_decay_factor : 1.0);
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
  const double base_lr = learning_rate_for(s.config, generation);
  for (int step = 0; step < steps; ++step) {
    double lr = base_lr;
    if (s.config.lr_schedule == "cosine") lr *= 0.1 + 0.9 * 0.5 * (1 + std::cos(M_PI * step / steps));
    for (auto& group : s.optimizer->param_groups()) group.options().set_lr(lr);
    for (int& i : indices) i = int(s.rng.uniform(uint32_t(window.size())));
    Batch batch = make_batch(window, indices, s.rng, nn::feature_version_of(s.net->config())).to(s.device);
    if (retarget) retarget(batch);
    s.optimizer->zero_grad();
    const LossTerms terms = compute_loss(s.net, batch, s.config.loss);
    terms.total.backward();
    s.optimizer->step();
    s.samples_seen += s.config.batch_size;
    stats.steps = step + 1;
    stats.samples_seen = s.samples_seen;
    stats.learning_rate = lr;
    stats.step_loss = terms.total.item<double>();  // compute_loss has already synced on its terms
    const bool log_now = (metrics || progress) && (step % log_every == 0 || step + 1 == steps);
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
                                      int64_t(window.size())});
    if (progress && log_now) progress(stats);
  }
  return stats;
}

nn::Model Trainer::model(const std::map<std::string, std::string>& metadata) const {
  std::map<std::string, std::string> meta = metadata;
  meta["samples_seen"] = std::to_string(state_->samples_seen);
  return nn::to_model(state_->net, meta);
}

void Trainer::save_optimizer() const {
  const State& s = *state_;
  if (s.optimizer_path.empty()) return;
  const std::string tmp = s.optimizer_path + ".tmp";
  torch::serialize::OutputArchive archive;
  s.optimizer->save(archive);
  archive.save_to(tmp);
  std::filesystem::rename(tmp, s.optimizer_path);
}

}  // namespace mushroom::train
