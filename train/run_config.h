// A run configuration: one TOML file with the tables [net], [selfplay],
// [train], [gate], [eval] and [run]. Every key is optional (defaults in the
// structs); an unknown table or key, a wrong type or an out-of-range value
// is an error that names the key. configs/cpu-small.toml documents them all.
#pragma once
#include <stdexcept>
#include <string>

#include "nn/model.h"
#include "selfplay/selfplay_config.h"
#include "train/train_config.h"

namespace mushroom::train {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunConfig {
  nn::NetConfig net;
  selfplay::SelfplayConfig selfplay;
  TrainConfig train;
  GateConfig gate;
  EvalConfig eval;
  DistillConfig distill;  // [distill], for `mushroom distill` only
  int generations = 10;  // [run] the loop stops after this many
  nn::GameKind game() const { return net.game; }  // [run] game, kept in the net's config
  uint64_t seed = 1;     // [run] seeds self-play, training and matches
  std::string hash;      // of the file's text, recorded in the data's metadata
};

RunConfig load_run_config(const std::string& path);
RunConfig parse_run_config(const std::string& text, const std::string& source_name);

}  // namespace mushroom::train
