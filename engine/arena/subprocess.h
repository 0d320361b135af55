// A child process spoken to over pipes, in its own process group so that it
// and everything it starts can be killed at once.
#pragma once
#include <string>
#include <sys/types.h>
#include <vector>

namespace mushroom {

class Subprocess {
 public:
  // Runs `/bin/sh -c command`. stderr goes to stderr_path, or when that is
  // empty to an anonymous in-memory file: either way its last line can be
  // read back (last_stderr_line), so a forfeit can quote the program. cpu >= 0 pins the child to that core. extra_env entries
  // ("KEY=VALUE") are added to the child's environment, replacing a variable
  // of the same name. Throws on failure to start.
  Subprocess(const std::string& command, const std::string& stderr_path = "", int cpu = -1,
             const std::vector<std::string>& extra_env = {});
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Writes a line (a '\n' is appended). False if the child is gone.
  bool write_line(const std::string& line);

  enum class ReadStatus { kLine, kTimeout, kClosed, kTooLong };
  // Waits up to timeout_ms for one line (without its '\n', CR stripped).
  ReadStatus read_line(std::string& line, int timeout_ms);

  // Kills the whole process group and reaps the child. Idempotent.
  void kill_all();
  // Waits up to timeout_ms for the child to exit by itself, its stdin left
  // open; true when it has.
  bool wait_exit(int timeout_ms);
  // Closes the child's stdin, waits up to timeout_ms for it to exit by
  // itself, then kills it.
  void finish(int timeout_ms);
  // A description of how the child ended ("exit 3", "signal 11"), or "running".
  std::string exit_description();
  // The last non-blank line the child wrote on its stderr, trimmed and cut
  // to 300 characters ("" when none).
  std::string last_stderr_line() const;
  // The child's pid, which is also its process group's id.
  pid_t pid() const { return pid_; }

 private:
  bool reap(bool block);

  pid_t pid_ = -1;
  bool group_killed_ = false;  // kill_all's SIGKILL sent: never again (the id may be reused)
  int to_child_ = -1;
  int from_child_ = -1;
  int stderr_fd_ = -1;  // the child's stderr file, opened for reading too
  std::string buffer_;
  bool exited_ = false;
  int status_ = 0;
};

}  // namespace mushroom
