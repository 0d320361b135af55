// libhdf5 (1.10.8, Debian 12's) faults on some damaged files inside its own
// parsing, before any check of ours can run: an allocation sized from the
// file, a read past a heap block, a wild pointer in the object-header walk
// (issue 101's fuzzing; fuzz/corpus/model_file/regress-hdf5-*). So before
// this process opens a file with libhdf5, a child process (fork) opens it
// and reads all of it: every group, every attribute and every dataset's
// values, following hard links only. The child says what it found through a
// pipe; a child that dies before saying (a signal, a sanitizer's report),
// runs out of CPU time or of its memory cap, or finds libhdf5 unable to
// allocate what the file asks for gets the file refused by name. The parent
// never lets libhdf5 parse bytes that the same library, in the child, could
// not.
//
// Where no sanitizer watches, a read past a heap block may not fault, so
// the child can pass a file the sanitized build refuses; the readers' own
// checks still apply.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace mushroom::nn {

struct Hdf5Preflight {
  enum class Outcome {
    kRead,            // the child read every object: safe for libhdf5 here
    kRefusedCleanly,  // libhdf5 returned an error there (our reader names it)
    kRefused,         // the child died, ran out of time or memory: refuse, with detail
  };
  Outcome outcome = Outcome::kRead;
  std::string detail;  // for kRefused: what happened, in words
  // The bytes it was decided on (preflight_hdf5 only), for
  // remember_hdf5_failure, and the file that held them (device, inode and
  // modification time), which Hdf5File::open_read compares with the file
  // at the path once libhdf5 has opened it.
  uint64_t size = 0, hash = 0;
  uint64_t device = 0, inode = 0;
  int64_t modified_ns = 0;
};

// Reads `path` in a child process as described above. Takes hdf5_lock()
// (nn/hdf5_file.h) for the child's whole run, so that no thread of this
// process is inside libhdf5 when it forks. Outcomes are remembered by the
// file's path, size and a hash of its bytes, so a reader that opens the
// same file twice (a shard's meta, then its samples) pays once.
//
// A file this process has failed to read (remember_hdf5_failure) is refused
// here too, before libhdf5 sees it again.
Hdf5Preflight preflight_hdf5(const std::string& path);

// Remembers that reading the file the preflight decided on (`check`, by its
// size and hash) failed in this process, `what` being the error. libhdf5's
// error paths can leave a file's shared state behind (issue 101: a second
// open of such a file read freed memory), so the process never opens those
// bytes again: preflight_hdf5 refuses them, naming the first error. Kept
// for the last 65,536 such files.
void remember_hdf5_failure(const std::string& path, const Hdf5Preflight& check, const std::string& what);

// The file at `path` now, without a child: its bytes (size, hash) and its
// identity as preflight_hdf5 records them (outcome kRead; kRefusedCleanly
// where it cannot be read). For a failure where libhdf5 may have read
// other bytes than the preflight's (a file renamed over in between).
Hdf5Preflight hdf5_file_now(const std::string& path);

// Whether the file at `path` is still the one `check` was decided on:
// the same device, inode, size and modification time.
bool same_hdf5_file(const std::string& path, const Hdf5Preflight& check);

// The child's CPU seconds: `base` plus 1 s for each 10 MB of the file.
// 10 by default; a fuzz target sets it below libFuzzer's -timeout.
void set_hdf5_preflight_seconds(double base);

// Whether the child runs under AddressSanitizer, which sees every read past
// a heap block (so every fault the fuzzer found is refused).
bool hdf5_preflight_under_asan();

namespace detail {
// The mechanism, for tests: runs `body` in a forked child with the
// preflight's hygiene (its own stdout and stderr on /dev/null, no core
// file, the parent's signal handlers reset, killed with the parent, a CPU
// limit and a memory cap), and reads the byte it returns: 'R' read, 'E'
// refused cleanly, any other byte refused with that byte named. A child that
// dies before returning, or runs past `wall_seconds`, is refused.
Hdf5Preflight run_in_child(const std::function<char()>& body, double cpu_seconds, double wall_seconds);

// For tests: called by Hdf5File::open_read between the preflight and
// libhdf5's open (to rename a file over the path there). Empty by default.
void set_before_hdf5_open(std::function<void(const std::string& path)> hook);
void before_hdf5_open(const std::string& path);
}  // namespace detail

}  // namespace mushroom::nn
