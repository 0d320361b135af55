#include "arena/subprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "arena/cpu_clock.h"
#include "util/text.h"

namespace mushroom {

namespace {
// Lines longer than this are garbage, not moves.
constexpr size_t kMaxLine = 4096;

void ignore_sigpipe_once() {
  static const bool done = [] {
    std::signal(SIGPIPE, SIG_IGN);  // a dead child must not kill the arena
    return true;
  }();
  (void)done;
}

// The parent's environment with `extra` added or replacing, built before
// fork because the child may only make async-signal-safe calls.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env = extra;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const std::string& x : extra) replaced = replaced || x.rfind(key, 0) == 0;
    if (!replaced) env.push_back(entry);
  }
  return env;
}
}  // namespace

Subprocess::Subprocess(const std::string& command, const std::string& stderr_path, int cpu,
                       const std::vector<std::string>& extra_env) {
  ignore_sigpipe_once();
  for (const std::string& x : extra_env)
    if (x.find('=') == std::string::npos || x[0] == '=')
      throw std::invalid_argument("environment entry '" + x + "' is not KEY=VALUE");
  std::vector<std::string> env_strings = child_environment(extra_env);
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]), close(in_pipe[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const int err_fd = stderr_path.empty() ? memfd_create("program-stderr", MFD_CLOEXEC)
                                         : open(stderr_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err_fd < 0) {
    const std::string why = std::strerror(errno);
    close(in_pipe[0]), close(in_pipe[1]), close(out_pipe[0]), close(out_pipe[1]);
    throw std::runtime_error((stderr_path.empty() ? std::string("memfd_create") : "cannot open " + stderr_path) + ": " +
                             why);
  }
  pid_ = fork();
  if (pid_ < 0) {
    const std::string why = std::strerror(errno);
    close(in_pipe[0]), close(in_pipe[1]), close(out_pipe[0]), close(out_pipe[1]), close(err_fd);
    throw std::runtime_error("fork: " + why);
  }
  if (pid_ == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof(set), &set);
    }
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_fd, 2);
    execle("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr), envp.data());
    _exit(127);
  }
  setpgid(pid_, pid_);  // also here, so kill_all works even before the child runs
  close(in_pipe[0]);
  close(out_pipe[1]);
  stderr_fd_ = err_fd;
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
}

Subprocess::~Subprocess() {
  kill_all();
  if (stderr_fd_ >= 0) close(stderr_fd_);
}

std::string Subprocess::last_stderr_line() const {
  struct stat st {};
  if (stderr_fd_ < 0 || fstat(stderr_fd_, &st) != 0 || st.st_size <= 0) return "";
  constexpr off_t kTail = 4096;
  const off_t from = st.st_size > kTail ? st.st_size - kTail : 0;
  std::string tail(size_t(st.st_size - from), '\0');
  const ssize_t n = pread(stderr_fd_, tail.data(), tail.size(), from);
  if (n <= 0) return "";
  tail.resize(size_t(n));
  const std::vector<std::string> lines = split_lines(tail);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (!trim(*it).empty()) return std::string(trim(*it)).substr(0, 300);
  return "";
}

bool Subprocess::write_line(const std::string& line) {
  if (to_child_ < 0) return false;
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(to_child_, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

Subprocess::ReadStatus Subprocess::read_line(std::string& line, int timeout_ms) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line.size() > kMaxLine ? ReadStatus::kTooLong : ReadStatus::kLine;
    }
    if (buffer_.size() > kMaxLine) return ReadStatus::kTooLong;
    if (from_child_ < 0) return ReadStatus::kClosed;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) return ReadStatus::kTimeout;
    pollfd pfd{from_child_, POLLIN, 0};
    const int ready = poll(&pfd, 1, int(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return ReadStatus::kTimeout;
    char chunk[1024];
    const ssize_t n = read(from_child_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(from_child_);
      from_child_ = -1;
      continue;  // any complete line left in the buffer is still returned
    }
    buffer_.append(chunk, size_t(n));
  }
}

bool Subprocess::reap(bool block) {
  if (exited_ || pid_ <= 0) return true;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, block ? 0 : WNOHANG);
  if (r == pid_) {
    exited_ = true;
    status_ = status;
  }
  return exited_;
}

namespace {

// Whether a process of group `group` is alive: not a zombie, which holds no
// core but counts for kill(-group, 0) until its new parent (init) reaps it.
bool group_has_live_process(pid_t group) {
  if (kill(-group, 0) != 0) return false;  // no process at all, zombies included
  if (DIR* proc = opendir("/proc")) {
    bool live = false;
    while (dirent* entry = readdir(proc)) {
      if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
      ProcStat stat;
      if (read_proc_stat(entry->d_name, stat) && stat.pgrp == group && stat.state != 'Z' && stat.state != 'X') {
        live = true;
        break;
      }
    }
    closedir(proc);
    return live;
  }
  return true;  // no /proc to tell: wait out the bound
}

}  // namespace

void Subprocess::kill_all() {
  if (pid_ > 0 && !group_killed_) {
    group_killed_ = true;
    kill(-pid_, SIGKILL);  // the whole group: shells, sleeps, grandchildren
    reap(true);
    // SIGKILL is sent, not yet done: the group's other processes (a bot's
    // shell's children) die a moment later. Wait for them (at most a
    // second) so that none holds a core when the next game's clock starts.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (group_has_live_process(pid_) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (to_child_ >= 0) close(to_child_), to_child_ = -1;
  if (from_child_ >= 0) close(from_child_), from_child_ = -1;
}

bool Subprocess::wait_exit(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!reap(false) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return reap(false);
}

void Subprocess::finish(int timeout_ms) {
  if (to_child_ >= 0) close(to_child_), to_child_ = -1;
  wait_exit(timeout_ms);
  kill_all();
}

std::string Subprocess::exit_description() {
  if (!reap(false)) return "running";
  if (WIFEXITED(status_)) return "exit " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) return "signal " + std::to_string(WTERMSIG(status_));
  return "ended";
}

}  // namespace mushroom
