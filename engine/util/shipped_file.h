// Files the project ships (models/: the default conv net, the learned
// evaluation and its fit; configs/: the commented run configs), found the
// same way by every command that falls back on them: in the data roots of
// util/data_roots.h (the working folder, $MUSHROOM_DATA, the executable's
// share/mushroom).
#pragma once
#include <string>

namespace mushroom {

// $env_var when it is set and not empty; else `relative` (e.g.
// "models/eval.bin") in the first data root that holds it. Throws
// std::runtime_error naming every place searched and $MUSHROOM_DATA, and
// saying how to name the file instead (`how_to_name`), when none does.
std::string find_shipped_file(const char* env_var, const std::string& relative, const std::string& how_to_name);

// A file named on the command line as a shipped one (an agent's
// eval=models/eval.bin): `given` itself when it exists or is absolute, else
// the same relative path in the first data root that holds it, else `given`
// (whose reader then says it is missing).
std::string shipped_or_given(const std::string& given);

// A run config given as --config: a file that exists, else a shipped
// config by name (eval-cpu, eval-cpu.toml or configs/eval-cpu.toml) in the
// data roots. Throws std::invalid_argument naming every place searched.
std::string find_config(const std::string& given);

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
