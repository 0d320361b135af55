// What a program command runs, byte for byte: the files it names and the
// data.bin beside them, each with its FNV-1a hash. A resumed match or
// ladder compares the fingerprint of each program with the one recorded
// with its earlier games, so a new export into the same folder is not
// taken for the build that played them.
//
// Checked: every word of the command that names a regular file (quotes
// removed; after a leading `cd DIR &&`, relative to DIR; an agent spec's
// option values such as eval=FILE too), and DIR/data.bin (the working
// folder's data.bin when there is no `cd`) when it exists. Not checked:
// files the program opens by other names, and programs found on $PATH.
#pragma once
#include <string>

namespace mushroom {

// "PATH@HASH" for each file, sorted, joined by ';' ("" when it names none).
std::string program_fingerprint(const std::string& command);

// "" when `recorded` and `now` agree, else which files differ, e.g.
// "sub/main changed (hash 1f2e... then, 9a8b... now)".
std::string fingerprint_changes(const std::string& recorded, const std::string& now);

}  // namespace mushroom
