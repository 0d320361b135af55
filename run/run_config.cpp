#include "run/run_config.h"

#include <iostream>
#include <optional>
#include <set>

#include "agents/probcut_fitting.h"
#include "run/pipeline.h"  // pipeline_models: [run] model's choices
#include "util/hash.h"
#include "util/rng.h"
#include "util/text.h"
#include "util/toml.h"

namespace mushroom::run {

namespace {

// One TOML table as a source of settings. It remembers which keys were
// read, so that finish() can name any other key as unknown.
class TomlTableSource : public SettingSource {
 public:
  TomlTableSource(const toml::table* table, std::string section, std::string source)
      : table_(table), section_(std::move(section)), source_(std::move(source)) {}

  std::optional<SettingValue> take(const std::string& key) override {
    used_.insert(key);
    const toml::node* node = table_ ? table_->get(key) : nullptr;
    if (!node) return std::nullopt;
    SettingValue v;
    if (node->is_integer()) v.type = SettingValue::Type::kInteger, v.integer = *node->value<int64_t>();
    else if (node->is_floating_point()) v.type = SettingValue::Type::kReal, v.real = *node->value<double>();
    else if (node->is_boolean()) v.type = SettingValue::Type::kBool, v.flag = *node->value<bool>();
    else if (node->is_string()) v.type = SettingValue::Type::kString, v.text = *node->value<std::string>();
    else v.type = SettingValue::Type::kText, v.text = "(a TOML array, table or date)";
    return v;
  }
  [[noreturn]] void reject(const std::string& key, const SettingValue&, const std::string& problem) const override {
    throw ConfigError(source_ + ": " + section_ + "." + key + " " + problem);
  }
  void note_old_spelling(const std::string& old_key, const std::string& key) const override {
    std::cerr << source_ << ": " << section_ << "." << old_key << " is an old spelling; write " << section_ << "."
              << key << std::endl;
  }
  void finish() const {
    if (!table_) return;
    for (const auto& [key, node] : *table_)
      if (!used_.count(std::string(key.str())))
        throw ConfigError(source_ + ": unknown key '" + section_ + "." + std::string(key.str()) + "'");
  }

 private:
  const toml::table* table_;
  std::string section_, source_;
  std::set<std::string> used_;
};

// Reads [name] into config through its declared table.
template <class Config>
void read_table(const toml::table& root, const SettingsTable<Config>& settings, const std::string& source,
                Config& config) {
  TomlTableSource table(root[settings.name()].as_table(), settings.name(), source);
  settings.read(table, config);
  table.finish();
}

}  // namespace

const SettingsTable<RunSection>& run_settings() {
  static const SettingsTable<RunSection> table =
      SettingsTable<RunSection>("run")
          .choice("game", [](auto& c) -> auto& { return c.game; }, nn::game_names(),
                  "the game: mushroom; blockgame (the learning check: configs/blockgame.toml) and tictactoe "
                  "check the pipeline on solved games")
          .choice("model", [](auto& c) -> auto& { return c.model; }, pipeline_models(),
                  "what the run learns: the conv net of [net], or the learned alpha-beta evaluation of [evalnet] "
                  "(mushroom only; configs/eval-cpu.toml)")
          .integer("generations", [](auto& c) -> auto& { return c.generations; }, 1, 1'000'000,
                   "the loop stops after this many generations")
          .integer("seed", [](auto& c) -> auto& { return c.seed; }, 0, 2'000'000'000,
                   "seeds boards, search noise, training order and matches");
  return table;
}

namespace {

// Every table of a run config, in the order the defaults file lists them,
// each with the part of RunConfig it fills: the one list that the reader,
// the defaults file and the default lookup share.
template <class Visit>
void for_each_table(RunConfig& c, Visit visit) {
  visit(nn::net_settings(), c.net);
  visit(selfplay::selfplay_settings(), c.selfplay);
  visit(selfplay::eval_selfplay_settings(), c.evalplay);
  visit(train::eval_net_settings(), c.evalnet);
  visit(train::train_settings(), c.train);
  visit(gate_settings(), c.gate);
  visit(eval_settings(), c.eval);
  visit(ladder_stage_settings(), c.ladder);
  visit(probcut_stage_settings(), c.probcut);
  visit(train::distill_settings(), c.distill);
  visit(run_settings(), c.run);
}

}  // namespace

std::string defaults_toml() {
  RunConfig defaults;
  std::string out;
  for_each_table(defaults, [&](const auto& table, auto&) { out += (out.empty() ? "" : "\n") + table.toml_text(); });
  return out;
}

std::string defaults_file_text() {
  return "# defaults.toml: every key of a run config at its default, with its range\n"
         "# or choices and what it does. Written by `mushroom config --out\n"
         "# configs/defaults.toml` from the settings' one declaration (the structs'\n"
         "# initializers and the *_settings() tables); a test fails when this file\n"
         "# is stale. A run config may leave any key out to get the value shown.\n\n" +
         defaults_toml();
}

std::vector<std::string> false_default_marks(const std::string& text, const std::string& source) {
  // The same value in TOML terms: numbers by value (20 and 20.0 agree).
  auto same = [](const toml::node* a, const toml::node* b) {
    if (!a || !b) return false;
    if (a->is_number() && b->is_number()) return *a->value<double>() == *b->value<double>();
    if (a->is_string() && b->is_string()) return *a->value<std::string>() == *b->value<std::string>();
    if (a->is_boolean() && b->is_boolean()) return *a->value<bool>() == *b->value<bool>();
    return false;
  };
  std::vector<std::string> problems;
  std::string section;
  int number = 0;
  for (const std::string& raw : split_lines(text)) {
    ++number;
    const std::string line(trim(raw));
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') section = line.substr(1, line.size() - 2);
    const size_t hash = line.find('#'), eq = line.find('=');
    if (hash == std::string::npos || eq == std::string::npos || eq > hash) continue;
    if (line.find("(default)", hash) == std::string::npos) continue;
    const std::string key(trim(line.substr(0, eq)));
    const std::string where = source + ":" + std::to_string(number) + ": " + section + "." + key;
    try {
      check_toml_characters(line);
      const toml::table written = toml::parse("x = " + line.substr(eq + 1, hash - eq - 1));
      const toml::table declared = toml::parse("x = " + default_text(section, key));
      if (!same(written.get("x"), declared.get("x")))
        problems.push_back(where + " is marked (default) but the default is " + default_text(section, key));
    } catch (const std::exception& e) {
      problems.push_back(where + ": " + e.what());
    }
  }
  return problems;
}

std::string default_text(const std::string& section, const std::string& key) {
  RunConfig defaults;
  std::optional<std::string> text;
  for_each_table(defaults, [&](const auto& table, auto&) {
    if (table.name() == section) text = table.default_text(key);
  });
  if (!text) throw std::invalid_argument("no settings table [" + section + "]");
  return *text;
}

namespace {

// "section.key=value" split, with the key checked against the declared ones.
struct Override {
  std::string section, key, value;
};
Override parse_override(const std::string& text) {
  const size_t eq = text.find('='), dot = text.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 || dot + 1 == eq)
    throw ConfigError("--set '" + text + "': expected section.key=value, e.g. selfplay.games=200");
  Override o{text.substr(0, dot), text.substr(dot + 1, eq - dot - 1), text.substr(eq + 1)};
  try {
    default_text(o.section, o.key);
  } catch (const std::invalid_argument&) {
    throw ConfigError("--set '" + text + "': unknown key '" + o.section + "." + o.key + "' (see mushroom config)");
  }
  return o;
}

// Puts each override into the parsed file: a TOML value, or a bare word as
// a string.
void apply_overrides(toml::table& root, const std::vector<std::string>& overrides) {
  for (const std::string& text : overrides) {
    const Override o = parse_override(text);
    bool toml_can_read = true;
    try {
      check_toml_characters(o.value);
    } catch (const TomlCheckFailed& e) {
      // A quoted value toml++ cannot read safely is refused (taken as a bare
      // word, it would keep its quotes); a bare word is a string without it.
      if (!o.value.empty() && (o.value.front() == '"' || o.value.front() == '\''))
        throw ConfigError("--set '" + text + "': " + e.what());
      toml_can_read = false;
    }
    toml::table value;
    bool parsed = false;
    if (toml_can_read) {
      try {
        value = toml::parse("x = " + o.value);
        parsed = true;
      } catch (const std::exception&) {  // toml::parse_error, or TomlCheckFailed: not TOML
      }
    }
    if (!parsed) value.insert_or_assign("x", o.value);
    if (!root.contains(o.section)) root.insert_or_assign(o.section, toml::table{});
    toml::table* section = root[o.section].as_table();
    if (!section) throw ConfigError("--set '" + text + "': '" + o.section + "' is not a table in the file");
    section->insert_or_assign(o.key, *value.get("x"));
  }
}

}  // namespace

namespace {
const char* const kOverridesMark = "\n# mushroom run --set, applied on top of the lines above:\n";
}  // namespace

std::string saved_config_text(const std::string& path, const std::vector<std::string>& overrides) {
  std::string text = read_file(path);
  if (overrides.empty()) return text;
  text += kOverridesMark;
  for (const std::string& o : overrides) text += "#   " + o + "\n";
  return text;
}

RunConfig parse_saved_config(const std::string& text, const std::string& source_name) {
  const size_t mark = text.rfind(kOverridesMark);
  std::vector<std::string> overrides;
  if (mark != std::string::npos)
    for (const std::string& line : split_lines(text.substr(mark + std::string(kOverridesMark).size())))
      if (line.rfind("#   ", 0) == 0) overrides.push_back(line.substr(4));
  return parse_run_config(text.substr(0, mark), source_name, overrides);
}

std::vector<std::string> changed_settings(const RunConfig& before, const RunConfig& after) {
  std::vector<std::string> keys;
  RunConfig defaults;  // for_each_table hands out mutable parts; only the tables' keys are read
  for_each_table(defaults, [&](const auto& table, auto&) {
    for (const std::string& key : table.keys()) keys.push_back(table.name() + "." + key);
  });
  std::vector<std::string> changes;
  for (const std::string& key : keys) {
    const std::string was = value_text(before, key), now = value_text(after, key);
    if (was != now) changes.push_back(key + ": " + was + " -> " + now);
  }
  return changes;
}

std::string value_text(const RunConfig& config, const std::string& section_key) {
  const Override o = parse_override(section_key + "=");
  std::optional<std::string> text;
  RunConfig copy = config;  // for_each_table hands out mutable parts
  for_each_table(copy, [&](const auto& table, auto& part) {
    if (table.name() == o.section) text = table.value_text(part, o.key);
  });
  return *text;
}

RunConfig parse_run_config(const std::string& text, const std::string& file_name, const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    check_toml_characters(text);
    root = toml::parse(text, file_name);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw ConfigError(file_name + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(e.description()));
  } catch (const TomlCheckFailed& e) {
    throw ConfigError(file_name + ": not TOML: " + e.what());
  }
  try {
    apply_overrides(root, overrides);
  } catch (const ConfigError& e) {
    throw ConfigError(file_name + ": " + e.what());  // a saved config's --set lines are its file's
  }
  std::string source = file_name;
  for (const std::string& o : overrides) source += (source == file_name ? " with --set " : ", ") + o;
  RunConfig c;
  std::set<std::string> sections;
  for_each_table(c, [&](const auto& table, auto&) { sections.insert(table.name()); });
  for (const auto& [key, node] : root) {
    const std::string name(key.str());
    if (!sections.count(name)) throw ConfigError(source + ": unknown table '" + name + "'");
    if (!node.is_table()) throw ConfigError(source + ": '" + name + "' must be a table ([" + name + "])");
  }
  for_each_table(c, [&](const auto& table, auto& part) { read_table(root, table, source, part); });
  if (c.selfplay.cheap_sims > c.selfplay.full_sims)
    throw ConfigError(source + ": selfplay.cheap_sims exceeds selfplay.full_sims");
  c.net.game = nn::parse_game_kind(c.run.game);
  if (c.learns_eval() && c.net.game != nn::GameKind::kMushroom)
    throw ConfigError(source + ": run.model = \"eval\" learns the mushroom game's alpha-beta evaluation, not " +
                      c.run.game + "'s");
  if (c.net.game != nn::GameKind::kMushroom && !c.gate.boards_file.empty())
    throw ConfigError(source + ": gate.boards_file holds mushroom boards; a " + c.run.game +
                      " run plays no boards file: leave it empty");
  if (c.evalnet.shape.hidden % 16 != 0)
    throw ConfigError(source + ": evalnet.hidden = " + std::to_string(c.evalnet.shape.hidden) +
                      " must be a multiple of 16 (the runtime's SIMD width)");
  // Each table's focus band (training's draws, the labels' depth).
  const auto check_focus_band = [&](const std::string& table, int min, int max) {
    if (min > max)
      throw ConfigError(source + ": " + table + ".focus_min = " + std::to_string(min) + " is above " + table +
                        ".focus_max = " + std::to_string(max) + ": the focus band would be empty");
  };
  check_focus_band("evalnet", c.evalnet.focus_min, c.evalnet.focus_max);
  check_focus_band("evalplay", c.evalplay.focus_min, c.evalplay.focus_max);
  if (c.evalnet.target == "margin" && c.evalnet.teacher_weight > 0)
    throw ConfigError(source + ": evalnet.teacher_weight mixes a teacher's win probability into the target, which "
                      "evalnet.target = \"margin\" (cells) has no place for: set teacher_weight = 0 or target = "
                      "\"probability\"");
  if (c.probcut.enabled && !c.learns_eval())
    throw ConfigError(source + ": probcut.enabled fits Multi-ProbCut for a learned evaluation; a run.model = \"" +
                      c.run.model + "\" run has none: set it false");
  if (c.evalplay.label_probcut && !c.learns_eval())
    throw ConfigError(source + ": evalplay.label_probcut prunes the learned evaluation's label search with its "
                      "Multi-ProbCut fit; a run.model = \"" + c.run.model + "\" run has none: set it false");
  if (c.evalplay.label_probcut && !c.probcut.enabled)
    throw ConfigError(source + ": evalplay.label_probcut labels with the fits the run's fit stage makes; set "
                      "probcut.enabled = true (the gate then plays with them too) or label_probcut = false");
  if (c.learns_eval()) {
    try {
      selfplay::check_label_config(c.evalplay.label_config());  // e.g. label_probcut with the plain search
    } catch (const std::invalid_argument& e) {
      throw ConfigError(source + ": [evalplay] " + e.what());
    }
  }
  try {
    probcut_fit_job(c.probcut, "");  // the fit's own rules across keys, before any work
  } catch (const std::invalid_argument& e) {
    throw ConfigError(source + ": [probcut] " + e.what());
  }
  // The conv net's self-play reaches a device only through LibTorch
  // (BLOCKGAME's always does; the learned evaluation's is alpha-beta).
  if (c.net.game == nn::GameKind::kMushroom && !c.learns_eval() && c.selfplay.device != "cpu" &&
      c.selfplay.backend != "torch")
    throw ConfigError(source + ": selfplay.device = \"" + c.selfplay.device + "\" needs selfplay.backend = \"torch\", "
                      "not \"" + c.selfplay.backend + "\" (which runs on the CPU): set both, or device = \"cpu\"");
  c.selfplay.seed = c.run.seed;
  c.train.seed = c.run.seed;
  uint64_t h = 0x6d757368726f6f6dull;
  std::string hashed = text;
  for (const std::string& o : overrides) hashed += "\n--set " + o;
  for (unsigned char ch : hashed) h = (h ^ ch) * 0x100000001b3ull;
  c.hash = hex64(Rng::splitmix64(h));
  return c;
}

RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  return parse_run_config(read_file(path), path, overrides);
}

}  // namespace mushroom::run
