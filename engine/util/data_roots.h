// The folders the shipped files (models/, configs/) are looked for in, in
// order: the working folder (a checkout), $MUSHROOM_DATA, the share/mushroom
// of the running executable's own prefix (an installed mushroom: /usr/bin/
// mushroom reads /usr/share/mushroom), and, for a binary that runs inside its
// build tree, the source tree it was built from.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace mushroom {

struct DataRoot {
  std::string folder;  // "" for the working folder, so that found paths stay relative there
  std::string what;    // how a message names it, e.g. "$MUSHROOM_DATA (/data)"
};

// The roots in lookup order. $MUSHROOM_DATA set to something that is not a
// folder throws std::runtime_error naming it.
std::vector<DataRoot> data_roots();

// `relative` (e.g. "models/eval.bin") under the first root that holds it.
std::optional<std::string> find_in_data_roots(const std::string& relative);

// Every place `relative` was looked for, for an error message: "models/eval.bin
// in the working folder, $MUSHROOM_DATA (not set), /usr/share/mushroom/models/eval.bin".
std::string places_looked(const std::string& relative);

// What `mushroom --version` says of the defaults: the folder models/eval.bin
// comes from, and the order in which the roots are searched.
std::string defaults_origin();

}  // namespace mushroom
