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

// The Multi-ProbCut fit that goes with it (alphabeta/probcut.h), "" for
// none: $MUSHROOM_PROBCUT when set ("none" turns ProbCut off); else none
// when $MUSHROOM_EVAL names another evaluation (the shipped fit belongs to
// models/eval.bin, and a fit made with another evaluation is refused); else
// models/eval.probcut.
std::string default_probcut_path();

}  // namespace mushroom
