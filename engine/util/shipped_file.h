// Files the project ships in models/ (the default conv net, the learned
// evaluation), found the same way by every command that falls back on them.
#pragma once
#include <string>

namespace mushroom {

// $env_var when it is set and not empty; else `relative` (e.g.
// "models/eval.bin") under the working directory, then under the source
// tree. Throws std::runtime_error listing the places searched when none
// exists, and saying how to name the file instead (`how_to_name`).
std::string find_shipped_file(const char* env_var, const std::string& relative, const std::string& how_to_name);

// The learned evaluation `mushroom bot` plays with when none is named:
// $MUSHROOM_EVAL, else models/eval.bin.
std::string default_eval_path();

}  // namespace mushroom
