// A run configuration: one TOML file with the tables [net], [selfplay],
// [evalplay], [evalnet], [train], [gate], [eval], [ladder], [probcut], [distill] and [run]. Every key is optional: the
// structs' member initializers are the defaults, and each table's settings
// (key, range, help) are declared once (util/settings.h), in the
// *_settings() functions. An unknown table or key, a wrong type or an
// out-of-range value is an error that names the key. configs/defaults.toml,
// written by `mushroom config`, lists every key at its default.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/model.h"
#include "run/fit_stage.h"
#include "run/match_configs.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/selfplay_config.h"
#include "train/nnue/eval_net_config.h"
#include "train/train_config.h"

namespace mushroom::run {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// [run]
struct RunSection {
  std::string game = "mushroom";  // also kept in the net's config
  // What the run learns: the conv net ([net]), or the learned alpha-beta
  // evaluation ([evalplay], [evalnet]; the mushroom game only).
  std::string model = "net";
  int generations = 10;           // the loop stops after this many
  uint64_t seed = 1;              // seeds self-play, training and matches
};
const SettingsTable<RunSection>& run_settings();

struct RunConfig {
  nn::NetConfig net;
  selfplay::SelfplayConfig selfplay;
  selfplay::EvalSelfplayConfig evalplay;  // model = "eval" runs only
  train::EvalNetConfig evalnet;                  // model = "eval" runs only
  train::TrainConfig train;
  GateConfig gate;
  EvalConfig eval;
  train::DistillConfig distill;  // for `mushroom distill` only
  LadderStageConfig ladder;
  ProbCutStageConfig probcut;  // model = "eval" runs only
  RunSection run;
  nn::GameKind game() const { return net.game; }
  bool learns_eval() const { return run.model == "eval"; }
  uint64_t seed() const { return run.seed; }
  std::string hash;  // of the file's text, recorded in the data's metadata
};

// `overrides` ("section.key=value", as `mushroom run --set` takes them)
// replace the file's value of that key, or add it, and are checked as the
// file is; the value is TOML (42, 0.5, true, "cuda"), a bare word a string.
// The config's hash covers them.
RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides = {});
RunConfig parse_run_config(const std::string& text, const std::string& source_name,
                           const std::vector<std::string>& overrides = {});
// The text a run saves as its config: the file, then the overrides as
// comment lines naming them.
std::string saved_config_text(const std::string& path, const std::vector<std::string>& overrides);
// The config a run saved (saved_config_text's text: the file, then its --set
// overrides as comments), parsed with those overrides applied.
RunConfig parse_saved_config(const std::string& text, const std::string& source_name);
// "section.key: old -> new" for every setting whose value differs.
std::vector<std::string> changed_settings(const RunConfig& before, const RunConfig& after);
// A key's value in a loaded config, as TOML text ("4", "\"cuda\""); throws
// ConfigError for an unknown section.key.
std::string value_text(const RunConfig& config, const std::string& section_key);

// Every table at its defaults, as commented TOML, and the whole of
// configs/defaults.toml (a header, then that).
std::string defaults_toml();
std::string defaults_file_text();
// A config file's lines whose comment says "(default)" while their value is
// not the declared default: one message per line, naming file, line and key.
std::vector<std::string> false_default_marks(const std::string& text, const std::string& source);
// The declared default of section.key as TOML text ("200", "\"adam\"",
// "0.001"); throws std::invalid_argument for an unknown key.
std::string default_text(const std::string& section, const std::string& key);

}  // namespace mushroom::run
