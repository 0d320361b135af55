#include "train/optimizer_state.h"

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <type_traits>

namespace mushroom::train {

namespace {

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

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainConfig& config,
                                                        const std::vector<torch::Tensor>& parameters) {
  if (config.optimizer == "adam")
    return std::make_unique<torch::optim::Adam>(
        parameters, torch::optim::AdamOptions(config.learning_rate).weight_decay(config.weight_decay).eps(config.adam_eps));
  return std::make_unique<torch::optim::SGD>(
      parameters,
      torch::optim::SGDOptions(config.learning_rate).momentum(config.momentum).weight_decay(config.weight_decay));
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer_with_state(const TrainConfig& config,
                                                                   const std::vector<torch::Tensor>& parameters,
                                                                   const std::string& path, const torch::Device& device) {
  auto optimizer = make_optimizer(config, parameters);
  if (path.empty() || !std::filesystem::exists(path)) return optimizer;
  std::string problem;
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path, device);
    optimizer->load(archive);
    if (!state_fits_parameters(*optimizer)) problem = "its moment tensors do not match the network's shapes";
  } catch (const std::exception& e) {
    problem = e.what();
    problem = problem.substr(0, problem.find('\n'));  // LibTorch appends a backtrace
  }
  if (problem.empty()) {
    // The file also restored its options; the config's win (a resumed run
    // takes a changed adam_eps or weight_decay; the rate is set every step).
    for (auto& group : optimizer->param_groups()) {
      if (auto* adam = dynamic_cast<torch::optim::AdamOptions*>(&group.options())) {
        adam->eps(config.adam_eps);
        adam->weight_decay(config.weight_decay);
      } else if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&group.options())) {
        sgd->momentum(config.momentum);
        sgd->weight_decay(config.weight_decay);
      }
    }
    return optimizer;
  }
  std::fprintf(stderr, "train: warning: optimizer state %s not usable (%s); starting it fresh\n", path.c_str(),
               problem.c_str());
  return make_optimizer(config, parameters);
}

void save_optimizer_state(torch::optim::Optimizer& optimizer, const std::string& path) {
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  archive.save_to(tmp);
  std::filesystem::rename(tmp, path);
}

}  // namespace mushroom::train
