#include "nn/hdf5_preflight.h"

#include <hdf5.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <vector>

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

// The child's exit codes; anything else (a signal, a sanitizer's exit) is a fault.
constexpr int kChildRead = 0;
constexpr int kChildError = 3;
// Values no more than this are read in the child (a larger dataset is left
// to the parent's own check of declared against stored sizes).
constexpr uint64_t kMostBytesRead = uint64_t(1) << 30;

struct Walk {
  bool error = false;
};

void read_attributes(hid_t object, Walk& walk);
void visit_group(hid_t group, Walk& walk, int depth);

// One attribute: its type, shape and values, into a buffer of their size.
herr_t read_attribute(hid_t object, const char* name, const H5A_info_t*, void* data) {
  Walk& walk = *static_cast<Walk*>(data);
  const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) {
    walk.error = true;
    return 0;
  }
  const hid_t type = H5Aget_type(attr);
  const hid_t space = H5Aget_space(attr);
  const hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  const size_t size = type >= 0 ? H5Tget_size(type) : 0;
  if (type < 0 || points < 0 || size == 0) {
    walk.error = true;
  } else if (uint64_t(points) <= kMostBytesRead / size) {
    std::vector<unsigned char> values(size_t(points) * size + 1);
    if (H5Aread(attr, type, values.data()) < 0) walk.error = true;
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
  if (type < 0 || points < 0 || size == 0) {
    walk.error = true;
  } else if (points > 0 && uint64_t(points) <= kMostBytesRead / size) {
    std::vector<unsigned char> values(size_t(points) * size);
    if (H5Dread(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) walk.error = true;
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (file_type >= 0) H5Tclose(file_type);
}

struct GroupWalk {
  Walk* walk;
  int depth;
};

// Each link of a group: a dataset is read, a group walked (a file's links
// can loop; 64 levels is far past any file of ours).
herr_t visit_link(hid_t group, const char* name, const H5L_info_t*, void* data) {
  GroupWalk& g = *static_cast<GroupWalk*>(data);
  if (g.depth > 64) {
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
    return 0;
  }
  // Neither (a named type, a dangling link): nothing to read.
  return 0;
}

void visit_group(hid_t group, Walk& walk, int depth) {
  read_attributes(group, walk);
  GroupWalk g{&walk, depth};
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, visit_link, &g) < 0) walk.error = true;
}

// The child: silence, a memory cap, the walk, and out without running any
// exit handler of the parent's (a libhdf5 flush of the parent's open files
// among them).
[[noreturn]] void child_reads(const std::string& path) {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
  const int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd >= 0) dup2(null_fd, STDERR_FILENO), dup2(null_fd, STDOUT_FILENO);
#ifdef MUSHROOM_UNDER_ASAN
  // A report here is the file's fault and the parent's refusal says so;
  // it must not count as one of the suite's (scripts/sanitize.sh) or stop
  // a fuzzer's run (libFuzzer's death callback).
  if (null_fd >= 0) __sanitizer_set_report_fd(reinterpret_cast<void*>(intptr_t(null_fd)));
  __sanitizer_set_death_callback([] { _exit(kChildError + 1); });
#else
  long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  const rlim_t cap = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(4) << 30);
  const rlimit limit{cap, cap};
  setrlimit(RLIMIT_AS, &limit);
#endif
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Walk walk;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) _exit(kChildError);
  const hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  if (root < 0) _exit(kChildError);
  visit_group(root, walk, 0);
  H5Gclose(root);
  H5Fclose(file);
  _exit(walk.error ? kChildError : kChildRead);
}

std::string signal_name(int sig) {
  const char* text = strsignal(sig);
  return "signal " + std::to_string(sig) + (text ? std::string(" (") + text + ")" : std::string());
}

}  // namespace

Hdf5Preflight preflight_hdf5(const std::string& path) {
  struct stat st {};
  const double megabytes = ::stat(path.c_str(), &st) == 0 ? double(st.st_size) / 1e7 : 0;
  const double limit_seconds = 20 + megabytes;
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = fork();
  if (child < 0) {
    // No child to spare: nothing checked, and the reader goes on as before
    // this check existed, rather than refusing a good file.
    return {Hdf5Preflight::Outcome::kRead, "not checked (fork failed)"};
  }
  if (child == 0) child_reads(path);
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  int status = 0;
  for (long sleep_ns = 100'000;; sleep_ns = std::min<long>(sleep_ns * 2, 20'000'000)) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0) return {Hdf5Preflight::Outcome::kRead, "not checked (waitpid failed)"};
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (double(now.tv_sec - start.tv_sec) + 1e-9 * double(now.tv_nsec - start.tv_nsec) > limit_seconds) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return {Hdf5Preflight::Outcome::kTimedOut,
              "reading it took libhdf5 more than " + std::to_string(int(limit_seconds)) + " s"};
    }
    const timespec pause{0, sleep_ns};
    nanosleep(&pause, nullptr);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildRead) return {Hdf5Preflight::Outcome::kRead, ""};
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildError) return {Hdf5Preflight::Outcome::kRefusedCleanly, ""};
  if (WIFSIGNALED(status))
    return {Hdf5Preflight::Outcome::kFaulted, "libhdf5 faulted reading it (" + signal_name(WTERMSIG(status)) + ")"};
  return {Hdf5Preflight::Outcome::kFaulted,
          "libhdf5 failed reading it (a checking process exited with status " +
              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")"};
}

}  // namespace mushroom::nn
