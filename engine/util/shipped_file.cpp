#include "util/shipped_file.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "util/data_roots.h"

namespace fs = std::filesystem;

namespace mushroom {

std::string find_shipped_file(const char* env_var, const std::string& relative, const std::string& how_to_name) {
  if (const char* env = std::getenv(env_var); env && *env) return env;
  if (const auto found = find_in_data_roots(relative)) return *found;
  throw std::runtime_error("no " + relative + ": looked for $" + env_var + " (not set), " + places_looked(relative) +
                           "; set MUSHROOM_DATA to a folder that holds models/ and configs/, or " + how_to_name);
}

std::string shipped_or_given(const std::string& given) {
  if (given.empty() || fs::path(given).is_absolute() || fs::exists(given)) return given;
  return find_in_data_roots(given).value_or(given);
}

std::string find_config(const std::string& given) {
  if (fs::is_regular_file(given)) return given;
  if (fs::path(given).is_absolute()) throw std::invalid_argument("--config " + given + ": no such file");
  // A name (eval-cpu or eval-cpu.toml) is a file of configs/; a relative
  // path (configs/eval-cpu.toml) is looked for as it is written.
  std::string relative = given;
  if (relative.find('/') == std::string::npos) relative = "configs/" + relative;
  if (fs::path(relative).extension() != ".toml") relative += ".toml";
  if (const auto found = find_in_data_roots(relative)) return *found;
  throw std::invalid_argument("--config " + given + ": no such file, nor a shipped config of that name: looked for " +
                              places_looked(relative) + "; set MUSHROOM_DATA to a folder that holds configs/");
}

std::string default_eval_path() {
  return find_shipped_file("MUSHROOM_EVAL", "models/eval.bin", "name another as the agent option eval=FILE");
}

std::string default_probcut_path() {
  if (const char* env = std::getenv("MUSHROOM_PROBCUT"); env && *env) return std::string(env) == "none" ? "" : env;
  if (const char* eval = std::getenv("MUSHROOM_EVAL"); eval && *eval) return "";
  return find_shipped_file("MUSHROOM_PROBCUT", "models/eval.probcut",
                           "name another as the agent option probcut=FILE, or set MUSHROOM_PROBCUT=none");
}

}  // namespace mushroom
