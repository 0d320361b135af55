#include "util/shipped_file.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace mushroom {

std::string find_shipped_file(const char* env_var, const std::string& relative, const std::string& how_to_name) {
  if (const char* env = std::getenv(env_var); env && *env) return env;
  const std::string candidates[] = {relative, std::string(MUSHROOM_SOURCE_DIR) + "/" + relative};
  for (const auto& c : candidates)
    if (std::filesystem::exists(c)) return c;
  throw std::runtime_error("no " + relative + ": looked for $" + env_var + ", " + candidates[0] + " and " +
                           candidates[1] + "; " + how_to_name);
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
