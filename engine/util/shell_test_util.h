// For tests that run programs: a shell command's exit code and its stdout
// and stderr together.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace mushroom {

struct ShellResult {
  int exit_code;       // -1 when the command did not exit normally
  std::string output;  // stdout and stderr together
};

inline ShellResult run_shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace mushroom
