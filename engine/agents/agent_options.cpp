#include "agents/agent_options.h"

#include <cstdlib>

namespace mushroom {

bool OptionReader::take(const std::string& key, std::string& value) {
  auto it = values_.find(key);
  if (it == values_.end()) return false;
  value = it->second;
  values_.erase(it);
  return true;
}

void OptionReader::bad(const std::string& key, const std::string& value, const std::string& expected) const {
  throw std::invalid_argument("agent '" + agent_ + "' option " + key + "=" + value + ": expected " + expected);
}

int OptionReader::get_int(const std::string& key, int fallback, int lo, int hi) {
  std::string v;
  if (!take(key, v)) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || x < lo || x > hi)
    bad(key, v, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return int(x);
}

double OptionReader::get_double(const std::string& key, double fallback, double lo, double hi) {
  std::string v;
  if (!take(key, v)) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(x >= lo && x <= hi))
    bad(key, v, "a number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

bool OptionReader::get_bool(const std::string& key, bool fallback) {
  std::string v;
  if (!take(key, v)) return fallback;
  if (v == "1" || v == "true" || v == "on") return true;
  if (v == "0" || v == "false" || v == "off") return false;
  bad(key, v, "0/1, true/false or on/off");
}

std::string OptionReader::get_string(const std::string& key, const std::string& fallback) {
  std::string v;
  return take(key, v) ? v : fallback;
}

std::string OptionReader::get_choice(const std::string& key, const std::string& fallback,
                                     std::initializer_list<const char*> choices) {
  std::string v;
  if (!take(key, v)) return fallback;
  std::string list;
  for (const char* c : choices) {
    if (v == c) return v;
    list += (list.empty() ? "" : "|") + std::string(c);
  }
  bad(key, v, list);
}

void OptionReader::finish() const {
  if (!values_.empty()) throw std::invalid_argument("agent '" + agent_ + "' has no option '" + values_.begin()->first + "'");
}

}  // namespace mushroom
