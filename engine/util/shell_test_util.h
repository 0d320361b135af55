// For tests that run programs: a shell command's exit code and its stdout
// and stderr together.
#pragma once
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

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

// A program started in the background with its stdout and stderr appended
// to a log file; killed with SIGKILL when destroyed while still running.
class BackgroundProcess {
 public:
  BackgroundProcess(const std::vector<std::string>& argv, const std::string& log_path) {
    pid_ = fork();
    if (pid_ == 0) {
      if (!freopen(log_path.c_str(), "a", stdout) || dup2(fileno(stdout), 2) < 0) _exit(126);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~BackgroundProcess() {
    if (running()) kill_now();
  }
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  bool running() {
    if (exited_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return true;
    record(status);
    return false;
  }
  void kill_now() {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    record(status);
  }
  // Waits until it exits (true) or `seconds` pass (false).
  bool wait_exit(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (running()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }
  // Kills it with SIGKILL as soon as until() holds, polled every 2 ms, or
  // after `seconds`. True if until() held while it was still running.
  template <typename Condition>
  bool kill_when(Condition until, double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (running()) {
      if (until()) {
        kill_now();
        return true;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        kill_now();
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
  int exit_code() const { return exit_code_; }  // -1 when killed or not exited

 private:
  void record(int status) {
    exited_ = true;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  pid_t pid_ = -1;
  bool exited_ = false;
  int exit_code_ = -1;
};

// Polls until `condition` holds (true) or `seconds` pass (false).
template <typename Condition>
bool wait_until(Condition condition, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace mushroom
