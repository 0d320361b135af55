#include "util/version.h"

#include "version_info.h"  // generated in the build tree

namespace mushroom {

std::string build_commit() { return MUSHROOM_COMMIT; }
std::string build_type() { return MUSHROOM_BUILD_TYPE; }
std::string build_version() { return "mushroom " + build_commit() + " (" + build_type() + ")"; }

}  // namespace mushroom
