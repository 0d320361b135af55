#include "nn/model.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "nn/features.h"
#include "util/rng.h"

namespace mushroom::nn {

namespace {

// Every game a net can play, one line each: its board, policy head and input
// layouts. The numbers repeat the game adapters' (search/game.h's learnable
// part; run/learning_games.cpp checks that they agree), because the
// exported bot builds this file without the games.
struct NetGame {
  GameKind kind;
  const char* name;
  int rows, cols;
  PolicyHead head;
  int slots_per_cell;
  int newest_version;
  int (*planes)(int version);  // 0: a layout this build does not know
};

constexpr NetGame kNetGames[] = {
    {GameKind::kMushroom, "mushroom", kRows, kCols, PolicyHead::kRectanglePairs, 0, kFeatureVersion,
     [](int v) { return v == kFeatureVersion ? kInputPlanes : 0; }},
    {GameKind::kBlockgame, "blockgame", 5, 5, PolicyHead::kCellSlots, 6, 2,
     [](int v) { return v == 1 ? 3 : v == 2 ? 10 : 0; }},
    {GameKind::kTictactoe, "tictactoe", 3, 3, PolicyHead::kCellSlots, 1, 1, [](int v) { return v == 1 ? 4 : 0; }},
};

const NetGame& net_game(GameKind kind) {
  for (const NetGame& g : kNetGames)
    if (g.kind == kind) return g;
  throw std::invalid_argument("no net layout for game number " + std::to_string(int(kind)));
}

}  // namespace

GameKind parse_game_kind(const std::string& name) {
  std::string known;
  for (const NetGame& g : kNetGames) {
    if (name == g.name) return g.kind;
    known += std::string(known.empty() ? "" : ", ") + "\"" + g.name + "\"";
  }
  throw std::invalid_argument("unknown game '" + name + "' (expected one of " + known + ")");
}

std::string game_name(GameKind game) { return net_game(game).name; }

std::vector<std::string> game_names() {
  std::vector<std::string> names;
  for (const NetGame& g : kNetGames) names.push_back(g.name);
  return names;
}

GameShape game_shape(GameKind game) {
  const NetGame& g = net_game(game);
  const int cells = g.rows * g.cols;
  const int policy_size = g.head == PolicyHead::kRectanglePairs ? cells * cells + 1 : g.slots_per_cell * cells;
  return {g.planes(g.newest_version), g.rows, g.cols, policy_size, g.head, g.slots_per_cell};
}

int newest_feature_version(GameKind game) { return net_game(game).newest_version; }

int feature_version_of(const NetConfig& c) {
  return c.feature_version ? c.feature_version : newest_feature_version(c.game);
}

int input_planes(const NetConfig& c) { return net_game(c.game).planes(feature_version_of(c)); }

bool NetConfig::operator==(const NetConfig& o) const {
  return blocks == o.blocks && channels == o.channels && policy_dim == o.policy_dim &&
         value_hidden == o.value_hidden && game == o.game && feature_version_of(*this) == feature_version_of(o);
}

const SettingsTable<NetConfig>& net_settings() {
  static const SettingsTable<NetConfig> table =
      SettingsTable<NetConfig>("net")
          .integer("blocks", [](auto& c) -> auto& { return c.blocks; }, 0, 64, "residual blocks in the trunk")
          .integer("channels", [](auto& c) -> auto& { return c.channels; }, 1, 512, "convolution channels")
          .integer("policy_dim", [](auto& c) -> auto& { return c.policy_dim; }, 1, 256,
                   "size of the U/V per-cell embeddings of the policy head")
          .integer("value_hidden", [](auto& c) -> auto& { return c.value_hidden; }, 1, 1024,
                   "hidden units of the value/score head");
  return table;
}

void validate(const NetConfig& c) {
  // The declared ranges (net_settings), checked on the values a file holds.
  for (const Setting<NetConfig>& s : net_settings().settings()) {
    const int v = int(s.number(c));
    if (v < s.lo || v > s.hi)
      throw std::invalid_argument("net config: " + s.key + " = " + std::to_string(v) + " is out of range [" +
                                  std::to_string(int(s.lo)) + ", " + std::to_string(int(s.hi)) + "]");
  }
  if (c.feature_version != 0 && input_planes(c) == 0)
    throw std::invalid_argument("net config: feature_version = " + std::to_string(c.feature_version) +
                                " is not a " + game_name(c.game) + " input layout this build knows (newest: " +
                                std::to_string(newest_feature_version(c.game)) + ")");
}

std::string describe(const NetConfig& c) {
  return (c.game == GameKind::kMushroom ? "" : game_name(c.game) + " ") + std::to_string(c.blocks) + "x" +
         std::to_string(c.channels) + " (policy " + std::to_string(c.policy_dim) + ", value " +
         std::to_string(c.value_hidden) + ")" +
         (feature_version_of(c) == newest_feature_version(c.game)
              ? ""
              : ", feature layout " + std::to_string(feature_version_of(c)));
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<TensorSpec> tensor_specs(const NetConfig& c) {
  const int64_t C = c.channels, E = c.policy_dim, H = c.value_hidden;
  std::vector<TensorSpec> specs = {
      {"input.weight", {C, input_planes(c), 3, 3}},
      {"input.bias", {C}},
  };
  for (int b = 0; b < c.blocks; ++b) {
    const std::string p = "blocks." + std::to_string(b) + ".";
    specs.push_back({p + "conv1.weight", {C, C, 3, 3}});
    specs.push_back({p + "conv1.bias", {C}});
    specs.push_back({p + "gpool.weight", {C, 2 * C}});
    specs.push_back({p + "conv2.weight", {C, C, 3, 3}});
    specs.push_back({p + "conv2.bias", {C}});
  }
  const GameShape shape = game_shape(c.game);
  if (shape.head == PolicyHead::kCellSlots) {
    specs.push_back({"policy.conv.weight", {shape.slots_per_cell, C, 1, 1}});
    specs.push_back({"policy.conv.bias", {shape.slots_per_cell}});
  } else {
    specs.push_back({"policy.conv.weight", {2 * E, C, 1, 1}});
    specs.push_back({"policy.conv.bias", {2 * E}});
    specs.push_back({"policy.pass.weight", {1, 2 * C}});
    specs.push_back({"policy.pass.bias", {1}});
  }
  specs.push_back({"value.fc1.weight", {H, 2 * C}});
  specs.push_back({"value.fc1.bias", {H}});
  specs.push_back({"value.fc2.weight", {4, H}});
  specs.push_back({"value.fc2.bias", {4}});
  specs.push_back({"ownership.conv.weight", {1, C, 1, 1}});
  specs.push_back({"ownership.conv.bias", {1}});
  return specs;
}

const Tensor& Model::at(const std::string& name) const {
  auto it = tensors.find(name);
  if (it == tensors.end()) throw std::runtime_error("model has no tensor '" + name + "'");
  return it->second;
}

int64_t Model::parameter_count() const {
  int64_t n = 0;
  for (const auto& [name, t] : tensors) n += t.numel();
  return n;
}

namespace {
std::string shape_text(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}
}  // namespace

void validate(const Model& model) {
  validate(model.config);
  const auto specs = tensor_specs(model.config);
  for (const auto& spec : specs) {
    auto it = model.tensors.find(spec.name);
    if (it == model.tensors.end()) throw std::runtime_error("model is missing tensor '" + spec.name + "'");
    const Tensor& t = it->second;
    if (t.shape != spec.shape)
      throw std::runtime_error("tensor '" + spec.name + "' has shape " + shape_text(t.shape) + ", expected " +
                               shape_text(spec.shape) + " for a " + describe(model.config) + " net");
    if (int64_t(t.data.size()) != t.numel())
      throw std::runtime_error("tensor '" + spec.name + "' holds " + std::to_string(t.data.size()) +
                               " values for shape " + shape_text(t.shape));
    for (float v : t.data)
      if (!std::isfinite(v)) throw std::runtime_error("tensor '" + spec.name + "' holds a non-finite value");
  }
  if (model.tensors.size() != specs.size()) {
    for (const auto& [name, t] : model.tensors) {
      bool known = false;
      for (const auto& spec : specs) known |= spec.name == name;
      if (!known) throw std::runtime_error("model has an unexpected tensor '" + name + "'");
    }
  }
}

void require_game(const Model& model, GameKind game, const std::string& who) {
  if (model.config.game != game)
    throw std::runtime_error(who + " runs " + game_name(game) + " nets; this model is a " + describe(model.config) +
                             " net");
}

Model random_model(const NetConfig& config, uint64_t seed) {
  validate(config);
  Model m;
  m.config = config;
  Rng rng(seed);
  for (const auto& spec : tensor_specs(config)) {
    Tensor t;
    t.shape = spec.shape;
    t.data.assign(t.numel(), 0.0f);
    const bool is_bias = spec.shape.size() == 1;
    if (!is_bias) {
      int64_t fan_in = 1;
      for (size_t i = 1; i < spec.shape.size(); ++i) fan_in *= spec.shape[i];
      double scale = std::sqrt(2.0 / double(fan_in));
      if (spec.name.find("conv2") != std::string::npos || spec.name.find("gpool") != std::string::npos) scale *= 0.3;
      for (float& v : t.data) v = float(scale * rng.normal());
    } else {
      for (float& v : t.data) v = float(0.05 * rng.normal());
    }
    m.tensors.emplace(spec.name, std::move(t));
  }
  m.metadata["model_id"] = "random-" + std::to_string(seed);
  return m;
}

}  // namespace mushroom::nn
