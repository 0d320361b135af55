// The network's architecture and weights, independent of any runtime. Both
// the LibTorch net (nn/torch_net.h) and the CPU inference (nn/cpu_net.h) are
// built from a Model, and the model file (nn/model_file.h) stores one.
//
// Architecture (C = channels, E = policy_dim, H = value_hidden):
//   input     3x3 conv, 17 planes -> C, then ReLU
//   blocks    x = relu(x + conv2(relu(conv1(x)) + gpool(...)))  (KataGo-style
//             global pooling: a linear map of [mean, max] over the board of
//             relu(conv1(x)) adds one bias per channel before conv2)
//   pooled    [mean, max] of the trunk over the board: 2C numbers
//   policy    1x1 conv C -> 2E gives U (first E) and V (last E) per cell;
//             logit(r1,c1,r2,c2) = <U[r1,c1], V[r2,c2]> / sqrt(E), and the
//             pass logit is a linear map of the pooled features
//   value     linear 2C -> H, ReLU, linear H -> 4: win/draw/loss logits and
//             the final margin divided by kScoreScale
//   ownership 1x1 conv C -> 1, tanh: +1 the side to move will own the cell at
//             the end, -1 the opponent will, 0 nobody
// Tensor names and shapes are listed by tensor_specs(); conv weights are
// [out, in, kh, kw] and linear weights [out, in], as in LibTorch.
//
// The same trunk serves every other game the pipeline learns (BLOCKGAME,
// tic-tac-toe): its board and input planes come from the game's table entry
// below, and its policy head is declared by kind, not by game:
//   rectangle pairs  the U/V head above, plus the pass (the mushroom game)
//   cell slots       one 1x1 conv C -> K: logit of slot k * cells + cell
//                    (BLOCKGAME: K = 6 piece orientations per anchor cell;
//                    tic-tac-toe: K = 1, the cell marked); no pass
// The value head is the same; the score and ownership heads exist for every
// game, and a game without those targets trains them with weight 0.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/settings.h"

namespace mushroom::nn {

// The score head predicts margin / kScoreScale (cells).
constexpr float kScoreScale = 20.0f;

// Which game a net plays: its input planes, board and policy head.
enum class GameKind { kMushroom, kBlockgame, kTictactoe };
// A game's name ("mushroom", "blockgame", "tictactoe"); parsing throws
// std::invalid_argument naming the value and the known games.
GameKind parse_game_kind(const std::string& name);
std::string game_name(GameKind game);
std::vector<std::string> game_names();  // every game a net can play

enum class PolicyHead { kRectanglePairs, kCellSlots };

struct GameShape {
  int planes, rows, cols;  // planes of the newest feature layout
  int policy_size;         // policy indices the net can score
  PolicyHead head;
  int slots_per_cell;      // kCellSlots: slot = k * rows * cols + cell
};
GameShape game_shape(GameKind game);

struct NetConfig {
  int blocks = 6;
  int channels = 32;
  int policy_dim = 32;
  int value_hidden = 64;
  GameKind game = GameKind::kMushroom;
  // Input layout (nn/features.h); 0: the game's newest. Only BLOCKGAME has
  // an older layout a model file may still use (version 1, 3 planes).
  int feature_version = 0;
  bool operator==(const NetConfig& o) const;
};
int newest_feature_version(GameKind game);
int feature_version_of(const NetConfig& config);  // resolves 0 to the newest
int input_planes(const NetConfig& config);
// The [net] settings of a run config: keys, defaults (NetConfig's), ranges.
const SettingsTable<NetConfig>& net_settings();
// Throws std::invalid_argument naming the field when out of range.
void validate(const NetConfig& config);
std::string describe(const NetConfig& config);  // "6x32 (policy 32, value 64)", game named unless mushroom,
                                                // an old feature layout named

struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
  int64_t numel() const;
};

struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
};
// Every tensor of the architecture, in a fixed order.
std::vector<TensorSpec> tensor_specs(const NetConfig& config);

struct Model {
  NetConfig config;
  std::map<std::string, Tensor> tensors;
  // Free-form provenance: model id, generation, samples seen, creation time.
  std::map<std::string, std::string> metadata;

  const Tensor& at(const std::string& name) const;  // throws naming the tensor
  int64_t parameter_count() const;
};

// Checks that every tensor of the architecture is present with its shape,
// that there are no others, and that all values are finite. Throws
// std::runtime_error naming the first problem.
void validate(const Model& model);
// Throws std::runtime_error when the model plays another game than the one
// a runtime supports, naming both (`who` is the runtime, for the message).
void require_game(const Model& model, GameKind game, const std::string& who);

// He-style random weights (the second conv of each block scaled down so the
// trunk starts close to identity), from a seed. For tests and first runs.
Model random_model(const NetConfig& config, uint64_t seed);

}  // namespace mushroom::nn
