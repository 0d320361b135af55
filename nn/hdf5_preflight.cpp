#include "nn/hdf5_preflight.h"

#include <hdf5.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

#include "nn/hdf5_file.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MUSHROOM_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MUSHROOM_UNDER_ASAN 1
#endif
#ifdef MUSHROOM_UNDER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace mushroom::nn {
namespace {

// The child's status, after the verdict byte is written or not.
constexpr int kVerdictFd = 3;
constexpr int kDiedExit = 97;  // a sanitizer's report (its death callback)
// Values no more than this are read in the child (a larger dataset is left
// to the parent's own check of declared against stored sizes).
constexpr uint64_t kMostBytesRead = uint64_t(1) << 30;
// Objects visited at most: a damaged file's hard links can loop.
constexpr int kMostObjects = 100'000;
double g_base_seconds = 10;

struct Walk {
  bool error = false;
  bool out_of_memory = false;  // libhdf5 could not allocate (a size from the file)
  int objects = 0;
};

// libhdf5's errors in the child: whether any is an allocation that failed.
// (Others are expected: the walk asks whether each name is a dataset before
// it opens it as a group.)
herr_t note_error(hid_t stack, void* data) {
  H5Ewalk2(
      stack, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* d) -> herr_t {
        if (e->maj_num == H5E_RESOURCE || e->min_num == H5E_CANTALLOC || e->min_num == H5E_NOSPACE)
          static_cast<Walk*>(d)->out_of_memory = true;
        return 0;
      },
      data);
  return 0;
}

// One attribute: its type, shape and values, into a buffer of their size.
herr_t read_attribute(hid_t object, const char* name, const H5A_info_t*, void* data) {
  Walk& walk = *static_cast<Walk*>(data);
  const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return 0;
  const hid_t type = H5Aget_type(attr);
  const hid_t space = H5Aget_space(attr);
  const hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  const size_t size = type >= 0 ? H5Tget_size(type) : 0;
  if (type >= 0 && points >= 0 && size > 0 && uint64_t(points) <= kMostBytesRead / size) {
    std::vector<unsigned char> values(size_t(points) * size + 1);
    H5Aread(attr, type, values.data());
  } else {
    walk.error = true;
  }
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  H5Aclose(attr);
  return 0;
}

void read_attributes(hid_t object, Walk& walk) {
  if (H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, read_attribute, &walk) < 0) walk.error = true;
}

// A dataset: its attributes and its values in the type the file gives them.
void read_dataset(hid_t set, Walk& walk) {
  read_attributes(set, walk);
  const hid_t file_type = H5Dget_type(set);
  const hid_t space = H5Dget_space(set);
  const hid_t type = file_type >= 0 ? H5Tget_native_type(file_type, H5T_DIR_DEFAULT) : -1;
  const hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  const size_t size = type >= 0 ? H5Tget_size(type) : 0;
  if (type >= 0 && points >= 0 && size > 0) {
    if (points > 0 && uint64_t(points) <= kMostBytesRead / size) {
      std::vector<unsigned char> values(size_t(points) * size);
      H5Dread(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    }
  } else {
    walk.error = true;
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (file_type >= 0) H5Tclose(file_type);
}

void visit_group(hid_t group, Walk& walk, int depth);

struct GroupWalk {
  Walk* walk;
  int depth;
};

// Each hard link of a group: a dataset is read, a group walked. Soft and
// external links are not followed (they could name any path).
herr_t visit_link(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  GroupWalk& g = *static_cast<GroupWalk*>(data);
  if (info->type != H5L_TYPE_HARD) return 0;
  if (g.depth > 64 || ++g.walk->objects > kMostObjects) {
    g.walk->error = true;
    return 1;  // stop
  }
  const hid_t set = H5Dopen2(group, name, H5P_DEFAULT);
  if (set >= 0) {
    read_dataset(set, *g.walk);
    H5Dclose(set);
    return 0;
  }
  const hid_t sub = H5Gopen2(group, name, H5P_DEFAULT);
  if (sub >= 0) {
    visit_group(sub, *g.walk, g.depth + 1);
    H5Gclose(sub);
  }
  return 0;  // neither (a named type): nothing to read
}

void visit_group(hid_t group, Walk& walk, int depth) {
  read_attributes(group, walk);
  GroupWalk g{&walk, depth};
  // 1 from visit_link stops the walk (a limit, already an error); below 0
  // libhdf5 could not list the group.
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, visit_link, &g) < 0) walk.error = true;
}

// The walk, in the child: 'R', 'E', or 'M' (libhdf5 could not allocate).
char walk_file(const std::string& path) {
  Walk walk;
  H5Eset_auto2(H5E_DEFAULT, note_error, &walk);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file >= 0) {
    const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
    if (root >= 0) {
      visit_group(root, walk, 0);
      H5Gclose(root);
    }
    H5Fclose(file);
  }
  if (walk.out_of_memory) return 'M';
  return file < 0 || walk.error ? 'E' : 'R';
}

// The child's setup before its body runs; it never returns to the caller's
// code: out through _exit, so no exit handler of the parent's runs (a
// libhdf5 flush of the parent's open files among them).
[[noreturn]] void child_main(const std::function<char()>& body, int verdict_fd, pid_t parent, double cpu_seconds) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(kDiedExit);
  if (verdict_fd != kVerdictFd) {
    dup2(verdict_fd, kVerdictFd);
    close(verdict_fd);
  }
  const int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
  }
  // Nothing else of the parent's stays open (a bot's pipes would not see
  // their end while the child lives); the null device stays for the reports.
  const int keep = null_fd > kVerdictFd ? null_fd : -1;
  if (keep > kVerdictFd + 1) close_range(kVerdictFd + 1, unsigned(keep - 1), 0);
  close_range(unsigned(std::max(keep, kVerdictFd) + 1), ~0U, 0);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU,
                  SIGPIPE})
    signal(sig, SIG_DFL);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  const rlim_t cpu = rlim_t(std::max(1.0, cpu_seconds + 0.999));
  const rlimit cpu_limit{cpu, cpu + 1};
  setrlimit(RLIMIT_CPU, &cpu_limit);
#ifdef MUSHROOM_UNDER_ASAN
  // A report here is the file's fault and the parent's refusal says so; it
  // must not count as one of the suite's (scripts/sanitize.sh) nor stop a
  // fuzzer's run (libFuzzer's death callback writes a crash file).
  if (keep >= 0) __sanitizer_set_report_fd(reinterpret_cast<void*>(intptr_t(keep)));
  __sanitizer_set_death_callback([] { _exit(kDiedExit); });
#else
  // 4 GiB beyond what the parent maps, never above a limit already set.
  long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  rlimit as{};
  getrlimit(RLIMIT_AS, &as);
  const rlim_t cap = std::min<rlim_t>(as.rlim_cur, rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(4) << 30));
  as.rlim_cur = cap;
  setrlimit(RLIMIT_AS, &as);
#endif
  const char verdict = body();
  ssize_t written;
  do written = write(kVerdictFd, &verdict, 1);
  while (written < 0 && errno == EINTR);
  _exit(0);
}

double seconds_since(const timespec& start) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec - start.tv_sec) + 1e-9 * double(now.tv_nsec - start.tv_nsec);
}

std::string how_it_ended(int status, bool have_status, double cpu_seconds) {
  if (!have_status) return "a checking process ended without a word";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGXCPU) return "reading it took libhdf5 more than " + std::to_string(int(cpu_seconds + 0.999)) + " s of CPU";
    const char* text = strsignal(sig);
    return "libhdf5 faulted reading it (signal " + std::to_string(sig) + (text ? std::string(", ") + text : "") + ")";
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kDiedExit)
    return "libhdf5 faulted reading it (a sanitizer's report in a checking process)";
  return "libhdf5 failed reading it (a checking process exited with status " +
         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
}

// A file's identity as a stat gives it: device, inode and modification
// time in ns (Hdf5Preflight's device, inode and modified_ns).
std::tuple<uint64_t, uint64_t, int64_t> identity_of(const struct stat& st) {
  return {uint64_t(st.st_dev), uint64_t(st.st_ino), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

// The file's bytes hashed (FNV-1a) and the identity of the file read, all
// through one descriptor; kRefusedCleanly where it cannot be opened.
Hdf5Preflight hash_file(const std::string& path) {
  Hdf5Preflight file{Hdf5Preflight::Outcome::kRead, ""};
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0) close(fd);
    file.outcome = Hdf5Preflight::Outcome::kRefusedCleanly;
    return file;
  }
  std::tie(file.device, file.inode, file.modified_ns) = identity_of(st);
  uint64_t h = 1469598103934665603ull, size = 0;
  std::vector<unsigned char> buffer(1 << 16);
  for (;;) {
    const ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) h = (h ^ buffer[size_t(i)]) * 1099511628211ull;
    size += uint64_t(n);
  }
  close(fd);
  file.size = size;
  file.hash = h;
  return file;
}

}  // namespace

void set_hdf5_preflight_seconds(double base) { g_base_seconds = base; }

bool hdf5_preflight_under_asan() {
#ifdef MUSHROOM_UNDER_ASAN
  return true;
#else
  return false;
#endif
}

namespace detail {

Hdf5Preflight run_in_child(const std::function<char()>& body, double cpu_seconds, double wall_seconds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return {Hdf5Preflight::Outcome::kRefused, std::string("no pipe for a checking process: ") + std::strerror(errno)};
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close(fds[0]);
    close(fds[1]);
    return {Hdf5Preflight::Outcome::kRefused, std::string("no checking process: ") + std::strerror(error)};
  }
  if (child == 0) {
    close(fds[0]);
    child_main(body, fds[1], parent, cpu_seconds);
  }
  close(fds[1]);
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  // The verdict, or the pipe's end when the child dies without one.
  char verdict = 0;
  bool have_verdict = false, timed_out = false;
  for (;;) {
    const double left = wall_seconds - seconds_since(start);
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, int(std::min(left * 1000 + 1, 1e9)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the time check above ends it
    const ssize_t n = read(fds[0], &verdict, 1);
    if (n < 0 && errno == EINTR) continue;
    have_verdict = n == 1;
    break;
  }
  close(fds[0]);
  if (timed_out) kill(child, SIGKILL);
  // Reap it; where another part of the process reaps children (SIGCHLD
  // ignored), its status is lost, never taken for a good one.
  int status = 0;
  pid_t reaped;
  do reaped = waitpid(child, &status, 0);
  while (reaped < 0 && errno == EINTR);
  const bool have_status = reaped == child;
  if (timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", wall_seconds);
    return {Hdf5Preflight::Outcome::kRefused, std::string("reading it took libhdf5 more than ") + limit + " s"};
  }
  if (have_verdict && verdict == 'R') return {Hdf5Preflight::Outcome::kRead, ""};
  if (have_verdict && verdict == 'E') return {Hdf5Preflight::Outcome::kRefusedCleanly, ""};
  if (have_verdict && verdict == 'M')
    return {Hdf5Preflight::Outcome::kRefused, "libhdf5 could not allocate what the file asks for"};
  if (have_verdict)
    return {Hdf5Preflight::Outcome::kRefused, std::string("a checking process answered '") + verdict + "'"};
  return {Hdf5Preflight::Outcome::kRefused, how_it_ended(status, have_status, cpu_seconds)};
}

}  // namespace detail

namespace {

using FileKey = std::tuple<std::string, uint64_t, uint64_t>;  // path, size, hash

// What the children said, by file (cleared past 4,096: a file asked about
// again is read again).
std::map<FileKey, Hdf5Preflight>& verdicts() {
  static std::map<FileKey, Hdf5Preflight> seen;
  return seen;
}

// Files whose reading failed in this process, oldest first: never cleared
// wholesale, since forgetting one would let libhdf5 open it again.
struct Failures {
  std::map<FileKey, std::string> detail;
  std::deque<FileKey> order;
};
Failures& failures() {
  static Failures f;
  return f;
}
constexpr size_t kMostRememberedFailures = 65536;

}  // namespace

Hdf5Preflight preflight_hdf5(const std::string& path) {
  const auto lock = hdf5_lock();
  // A file that cannot be read at all is the caller's to name, unforked.
  const Hdf5Preflight file = hash_file(path);
  if (file.outcome != Hdf5Preflight::Outcome::kRead) return file;
  // The verdict with this file's size, hash and identity.
  const auto about_this_file = [&file](const Hdf5Preflight& verdict) {
    Hdf5Preflight result = file;
    result.outcome = verdict.outcome;
    result.detail = verdict.detail;
    return result;
  };
  const FileKey key{path, file.size, file.hash};
  if (const auto it = failures().detail.find(key); it != failures().detail.end())
    return about_this_file({Hdf5Preflight::Outcome::kRefused, it->second});
  auto& seen = verdicts();
  if (const auto it = seen.find(key); it != seen.end()) return about_this_file(it->second);
  const double cpu_seconds = g_base_seconds + double(file.size) / 1e7;
  // The CPU limit decides; the wall clock only backs it up (a loaded machine).
  const Hdf5Preflight result =
      detail::run_in_child([&path] { return walk_file(path); }, cpu_seconds, 10 * cpu_seconds + 60);
  if (seen.size() >= 4096) seen.clear();
  seen.emplace(key, result);
  return about_this_file(result);
}

void remember_hdf5_failure(const std::string& path, const Hdf5Preflight& check, const std::string& what) {
  const auto lock = hdf5_lock();
  const FileKey key{path, check.size, check.hash};
  Failures& f = failures();
  if (f.detail.count(key)) return;
  if (f.order.size() >= kMostRememberedFailures) {
    f.detail.erase(f.order.front());
    f.order.pop_front();
  }
  f.detail.emplace(key, "reading it failed earlier in this process (" + what +
                            "), and libhdf5 may keep state from that failure which a second open would reuse");
  f.order.push_back(key);
}

Hdf5Preflight hdf5_file_now(const std::string& path) { return hash_file(path); }

bool same_hdf5_file(const std::string& path, const Hdf5Preflight& check) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  return identity_of(st) == std::tuple(check.device, check.inode, check.modified_ns) &&
         uint64_t(st.st_size) == check.size;
}

namespace detail {
namespace {
std::function<void(const std::string&)>& before_open_hook() {
  static std::function<void(const std::string&)> hook;
  return hook;
}
}  // namespace
void set_before_hdf5_open(std::function<void(const std::string& path)> hook) { before_open_hook() = std::move(hook); }
void before_hdf5_open(const std::string& path) {
  if (before_open_hook()) before_open_hook()(path);
}
}  // namespace detail

}  // namespace mushroom::nn
