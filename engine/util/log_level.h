// How much a command says: --quiet and --verbose, set once for every
// command by the command line (cli/output_options.cpp).
//   quiet    errors, warnings and the results asked for (a report, a table,
//            a move); no progress, no log lines
//   normal   also the log lines of long jobs (stage starts and results) and
//            the progress reporter (util/progress.h)
//   verbose  also the periodic figures of each stage as log lines (self-play
//            every few seconds, every logged training step, each fit game)
#pragma once

namespace mushroom {

enum class LogLevel { kQuiet, kNormal, kVerbose };

LogLevel log_level();
void set_log_level(LogLevel level);
inline bool quiet() { return log_level() == LogLevel::kQuiet; }
inline bool verbose() { return log_level() == LogLevel::kVerbose; }

}  // namespace mushroom
