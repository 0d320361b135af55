// A file a command is to write, checked before any work: a --json, --out or
// --samples in a folder that is missing or cannot be written is refused by
// name at once, not after an hour of games.
#pragma once
#include <string>

namespace mushroom {

// Throws std::invalid_argument, naming --`option` and the path, unless a
// file can be written at `path`: its folder exists and takes a new file,
// and the path is not a folder.
void check_output_path(const std::string& path, const std::string& option);

}  // namespace mushroom
