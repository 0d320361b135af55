// Settings declared once. A SettingsTable<Config> lists a config struct's
// settings, each with its key, kind, range or choices and one line of help;
// the default is whatever the struct's member initializer says, so it is
// written in exactly one place. The same table reads a TOML table (run
// configs), key=value options (agents), prints --help and writes the
// commented defaults file (`mushroom config`).
//
// Plain C++17 with no dependencies: the exported bot embeds it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mushroom {

// A value as a source has it: typed (TOML) or text to be parsed (options).
struct SettingValue {
  enum class Type { kInteger, kReal, kBool, kString, kText };
  Type type = Type::kText;
  int64_t integer = 0;
  double real = 0;
  bool flag = false;
  std::string text;  // kString and kText
};

// Where values come from. take() hands out a key's value once; the table
// reports a bad value through reject(), which throws with the source's own
// naming of the setting.
class SettingSource {
 public:
  virtual ~SettingSource() = default;
  virtual std::optional<SettingValue> take(const std::string& key) = 0;
  [[noreturn]] virtual void reject(const std::string& key, const SettingValue& value, const std::string& problem) const = 0;
  // A value was given under the setting's old spelling (still accepted).
  virtual void note_old_spelling(const std::string& /*old_key*/, const std::string& /*key*/) const {}
};

enum class SettingKind { kInteger, kReal, kBool, kChoice, kText, kDevice };

// One declared setting of Config.
template <class Config>
struct Setting {
  std::string key;
  std::string old_key;  // an old spelling still read, with a note ("": none)
  SettingKind kind = SettingKind::kText;
  double lo = 0, hi = 0;             // kInteger, kReal
  std::vector<std::string> choices;  // kChoice
  std::string help;
  // Reads the member's current value as text (for defaults) and writes a
  // checked value into it.
  std::function<std::string(const Config&)> show;
  std::function<void(Config&, const SettingValue&, const SettingSource&)> store;
  // kInteger and kReal: the member's value, to check a config made elsewhere
  // (a model file's header) against the declared range.
  std::function<double(const Config&)> number;
};

namespace settings_detail {
inline std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
inline std::string real_text(double v) {
  std::string s = number_text(v);
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";  // TOML keeps it a float
  return s;
}
inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }
inline std::string range_text(double lo, double hi) { return "[" + number_text(lo) + ", " + number_text(hi) + "]"; }

// Parses a whole-string integer or number from option text.
inline bool parse_integer(const std::string& text, int64_t& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end) return false;
  out = v;
  return true;
}
inline bool parse_real(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end) return false;
  out = v;
  return true;
}
}  // namespace settings_detail

template <class Config>
class SettingsTable {
 public:
  explicit SettingsTable(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<Setting<Config>>& settings() const { return settings_; }

  // field(c) returns a reference to the member, e.g. [](auto& c) -> auto& { return c.mcts.c_puct; }
  template <class Field>
  SettingsTable& integer(const char* key, Field field, int64_t lo, int64_t hi, const char* help) {
    Setting<Config> s = make(key, SettingKind::kInteger, double(lo), double(hi), {}, help);
    s.show = [field](const Config& c) { return std::to_string(int64_t(field(c))); };
    s.number = [field](const Config& c) { return double(field(c)); };
    s.store = [field, lo, hi, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      int64_t x = 0;
      if (v.type == SettingValue::Type::kInteger) x = v.integer;
      else if (!(v.type == SettingValue::Type::kText && settings_detail::parse_integer(v.text, x)))
        source.reject(key, v, "must be an integer in " + settings_detail::range_text(double(lo), double(hi)));
      if (x < lo || x > hi)
        source.reject(key, v, "is " + std::to_string(x) + ", outside the range " +
                                    settings_detail::range_text(double(lo), double(hi)));
      using T = std::decay_t<decltype(field(c))>;
      field(c) = T(x);
    };
    settings_.push_back(std::move(s));
    return *this;
  }
  template <class Field>
  SettingsTable& real(const char* key, Field field, double lo, double hi, const char* help) {
    Setting<Config> s = make(key, SettingKind::kReal, lo, hi, {}, help);
    s.show = [field](const Config& c) { return settings_detail::real_text(double(field(c))); };
    s.number = [field](const Config& c) { return double(field(c)); };
    s.store = [field, lo, hi, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      double x = 0;
      if (v.type == SettingValue::Type::kReal) x = v.real;
      else if (v.type == SettingValue::Type::kInteger) x = double(v.integer);
      else if (!(v.type == SettingValue::Type::kText && settings_detail::parse_real(v.text, x)))
        source.reject(key, v, "must be a number in " + settings_detail::range_text(lo, hi));
      if (!(x >= lo && x <= hi))
        source.reject(key, v, "is " + settings_detail::number_text(x) + ", outside the range " +
                                    settings_detail::range_text(lo, hi));
      field(c) = x;
    };
    settings_.push_back(std::move(s));
    return *this;
  }
  template <class Field>
  SettingsTable& flag(const char* key, Field field, const char* help) {
    Setting<Config> s = make(key, SettingKind::kBool, 0, 1, {}, help);
    s.show = [field](const Config& c) { return std::string(field(c) ? "true" : "false"); };
    s.store = [field, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      if (v.type == SettingValue::Type::kBool) {
        field(c) = v.flag;
        return;
      }
      if (v.type == SettingValue::Type::kText) {
        if (v.text == "1" || v.text == "true" || v.text == "on") return void(field(c) = true);
        if (v.text == "0" || v.text == "false" || v.text == "off") return void(field(c) = false);
      }
      source.reject(key, v, "must be true or false");
    };
    settings_.push_back(std::move(s));
    return *this;
  }
  template <class Field>
  SettingsTable& choice(const char* key, Field field, std::vector<std::string> choices, const char* help) {
    Setting<Config> s = make(key, SettingKind::kChoice, 0, 0, choices, help);
    s.show = [field](const Config& c) { return settings_detail::quoted(field(c)); };
    s.store = [field, choices, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      std::string list;
      for (const std::string& choice : choices) list += (list.empty() ? "" : ", ") + choice;
      if (v.type != SettingValue::Type::kString && v.type != SettingValue::Type::kText)
        source.reject(key, v, "must be one of: " + list);
      for (const std::string& choice : choices)
        if (v.text == choice) return void(field(c) = v.text);
      source.reject(key, v, "is \"" + v.text + "\", expected one of: " + list);
    };
    settings_.push_back(std::move(s));
    return *this;
  }
  template <class Field>
  SettingsTable& text(const char* key, Field field, const char* help) {
    Setting<Config> s = make(key, SettingKind::kText, 0, 0, {}, help);
    s.show = [field](const Config& c) { return settings_detail::quoted(field(c)); };
    s.store = [field, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      if (v.type != SettingValue::Type::kString && v.type != SettingValue::Type::kText)
        source.reject(key, v, "must be a string");
      field(c) = v.text;
    };
    settings_.push_back(std::move(s));
    return *this;
  }
  // A LibTorch device name: cpu, cuda or cuda:N.
  template <class Field>
  SettingsTable& device(const char* key, Field field, const char* help) {
    Setting<Config> s = make(key, SettingKind::kDevice, 0, 0, {"cpu", "cuda", "cuda:N"}, help);
    s.show = [field](const Config& c) { return settings_detail::quoted(field(c)); };
    s.store = [field, key = std::string(key)](Config& c, const SettingValue& v, const SettingSource& source) {
      const bool text = v.type == SettingValue::Type::kString || v.type == SettingValue::Type::kText;
      int64_t n = 0;
      if (!text || !(v.text == "cpu" || v.text == "cuda" ||
                     (v.text.rfind("cuda:", 0) == 0 && settings_detail::parse_integer(v.text.substr(5), n) && n >= 0)))
        source.reject(key, v, (text ? "is \"" + v.text + "\", " : std::string()) + "expected cpu, cuda or cuda:N");
      field(c) = v.text;
    };
    settings_.push_back(std::move(s));
    return *this;
  }

  // Reads every declared key the source has into config; keys it lacks keep
  // their current value. The source decides what an unread key means.
  void read(SettingSource& source, Config& config) const {
    for (const Setting<Config>& s : settings_) {
      std::optional<SettingValue> v = source.take(s.key);
      if (!s.old_key.empty())
        if (std::optional<SettingValue> old = source.take(s.old_key)) {
          if (v) source.reject(s.key, *old, "is given twice: also as its old spelling '" + s.old_key + "'");
          source.note_old_spelling(s.old_key, s.key);
          v = old;
        }
      if (v) s.store(config, *v, source);
    }
  }

  // The last declared setting is also read under `old_key`, its old spelling.
  SettingsTable& old_spelling(const char* old_key) {
    settings_.back().old_key = old_key;
    return *this;
  }

  // The declared defaults: a default-constructed Config's values.
  std::string default_text(const std::string& key) const {
    for (const Setting<Config>& s : settings_)
      if (s.key == key) return s.show(Config{});
    throw std::invalid_argument("no setting '" + key + "' in " + name_);
  }

  // The declared keys, in declaration order.
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Setting<Config>& s : settings_) out.push_back(s.key);
    return out;
  }

  // A setting's value in `config`, as TOML text.
  std::string value_text(const Config& config, const std::string& key) const {
    for (const Setting<Config>& s : settings_)
      if (s.key == key || (!s.old_key.empty() && s.old_key == key)) return s.show(config);
    throw std::invalid_argument("no setting '" + key + "' in " + name_);
  }

  // One line per setting: key, default, range or choices, help.
  std::string help_text(const std::string& indent = "  ") const {
    std::string out;
    const Config defaults{};
    for (const Setting<Config>& s : settings_)
      out += indent + s.key + "=" + s.show(defaults) + "  " + domain(s) + "  " + s.help + "\n";
    return out;
  }

  // The table as TOML: [name], then each key at its default with its domain
  // and help as a comment.
  std::string toml_text() const {
    std::string out = "[" + name_ + "]\n";
    const Config defaults{};
    for (const Setting<Config>& s : settings_) {
      std::string line = s.key + " = " + s.show(defaults);
      if (line.size() < 30) line.resize(30, ' ');
      out += line + "  # " + domain(s) + " " + s.help + "\n";
    }
    return out;
  }

 private:
  static Setting<Config> make(const char* key, SettingKind kind, double lo, double hi, std::vector<std::string> choices,
                              const char* help) {
    Setting<Config> s;
    s.key = key;
    s.kind = kind;
    s.lo = lo;
    s.hi = hi;
    s.choices = std::move(choices);
    s.help = help;
    return s;
  }
  static std::string domain(const Setting<Config>& s) {
    switch (s.kind) {
      case SettingKind::kInteger:
      case SettingKind::kReal: return settings_detail::range_text(s.lo, s.hi);
      case SettingKind::kBool: return "(true/false)";
      case SettingKind::kText: return "(text)";
      case SettingKind::kChoice:
      case SettingKind::kDevice: {
        std::string list;
        for (const std::string& c : s.choices) list += (list.empty() ? "" : "|") + c;
        return "(" + list + ")";
      }
    }
    return "";
  }

  std::string name_;
  std::vector<Setting<Config>> settings_;
};

// key=value options (agents, `--opt`): every value is text; a key no table
// reads is an error the caller raises through unread().
class OptionSource : public SettingSource {
 public:
  OptionSource(std::string owner, std::vector<std::pair<std::string, std::string>> values)
      : owner_(std::move(owner)), values_(std::move(values)) {}

  std::optional<SettingValue> take(const std::string& key) override {
    for (auto it = values_.begin(); it != values_.end(); ++it)
      if (it->first == key) {
        SettingValue v;
        v.text = it->second;
        values_.erase(it);
        return v;
      }
    return std::nullopt;
  }
  [[noreturn]] void reject(const std::string& key, const SettingValue& value, const std::string& problem) const override {
    throw std::invalid_argument(owner_ + " option " + key + "=" + value.text + ": " + problem);
  }
  // The first key nothing read, if any.
  std::optional<std::string> unread() const {
    if (values_.empty()) return std::nullopt;
    return values_.front().first;
  }

 private:
  std::string owner_;
  std::vector<std::pair<std::string, std::string>> values_;
};

}  // namespace mushroom
