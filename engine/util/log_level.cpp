#include "util/log_level.h"

#include <atomic>

namespace mushroom {

namespace {
std::atomic<LogLevel> level{LogLevel::kNormal};
}  // namespace

LogLevel log_level() { return level.load(); }
void set_log_level(LogLevel l) { level.store(l); }

}  // namespace mushroom
