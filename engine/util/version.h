// Which build this is: the commit of the source tree it was built from
// (short hash, "-dirty" when tracked files had changes, "unknown" outside
// git) and the CMake build type. Recorded with every generation record,
// model file and shard, and printed by `mushroom --version`.
#pragma once
#include <string>

namespace mushroom {

std::string build_commit();
std::string build_type();
// "mushroom <commit> (<build type>)"
std::string build_version();

}  // namespace mushroom
