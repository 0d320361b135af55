// CPU time of a whole process tree, as the judge charges it: every process
// in a process group (the arena starts each program in its own group), all
// of their threads, plus what their finished children used. Linux only
// (/proc).
#pragma once
#include <sys/types.h>

#include <string>

namespace mushroom {

// Milliseconds of user plus system CPU time used so far by the processes
// whose process group is pgid, including their reaped children. Live
// processes are read to the nanosecond (clock_getcpuclockid); reaped
// children only to the kernel's tick (usually 10 ms). A process that is gone
// and was not reaped by a member of the group is no longer counted, so read
// it before and after a move and subtract.
double process_group_cpu_ms(pid_t pgid);

// The text of /proc/PID/stat, or "" when the process is gone or /proc cannot
// say. Read with read(2): a process that exits while its file is read makes
// the read fail (ESRCH), which an ifstream's buffer turns into an exception
// that stopped a whole match under load.
std::string proc_stat_text(const std::string& pid);

// The fields of /proc/PID/stat that the arena reads.
struct ProcStat {
  char state = 0;  // 'R', 'S', ... 'Z' (zombie), 'X' (dead)
  pid_t pgrp = 0;
  long long utime = 0, stime = 0, cutime = 0, cstime = 0;  // clock ticks
};
// Reads them for PID; false when the process is gone or the text does not parse.
bool read_proc_stat(const std::string& pid, ProcStat& out);

}  // namespace mushroom
