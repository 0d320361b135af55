// Reads an agent's key=value options with range checks, and rejects any key
// the agent does not know, naming it.
#pragma once
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>

namespace mushroom {

class OptionReader {
 public:
  OptionReader(std::string agent, std::map<std::string, std::string> values)
      : agent_(std::move(agent)), values_(std::move(values)) {}

  int get_int(const std::string& key, int fallback, int lo, int hi);
  double get_double(const std::string& key, double fallback, double lo, double hi);
  bool get_bool(const std::string& key, bool fallback);
  std::string get_string(const std::string& key, const std::string& fallback);
  std::string get_choice(const std::string& key, const std::string& fallback, std::initializer_list<const char*> choices);
  // Throws std::invalid_argument if any option was not read.
  void finish() const;

 private:
  bool take(const std::string& key, std::string& value);
  [[noreturn]] void bad(const std::string& key, const std::string& value, const std::string& expected) const;
  std::string agent_;
  std::map<std::string, std::string> values_;
};

}  // namespace mushroom
