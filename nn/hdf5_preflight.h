// libhdf5 (1.10.8, Debian 12's) faults on some damaged files inside its own
// parsing, before any check of ours can run: an allocation sized from the
// file, a read past a heap block, a wild pointer in the object-header walk
// (fuzz/upstream/, issue 101). So before this process opens a file with
// libhdf5, a child process (fork) opens it and reads all of it: every
// group, every attribute and every dataset's values. A child that dies, is
// killed, or runs past its time is the file's fault, and the file is
// refused by name; the parent never lets libhdf5 parse bytes that the same
// library, in the child, could not.
#pragma once
#include <string>

namespace mushroom::nn {

struct Hdf5Preflight {
  enum class Outcome {
    kRead,          // the child read every object: safe for libhdf5 here
    kRefusedCleanly,  // libhdf5 returned an error (our reader names it)
    kFaulted,       // the child died (a signal, a sanitizer's report)
    kTimedOut,      // the child ran past its time and was killed
  };
  Outcome outcome = Outcome::kRead;
  std::string detail;  // for kFaulted and kTimedOut: what happened, in words
};

// Reads `path` in a child process as described above. The child's memory is
// capped (4 GiB beyond what the parent maps, outside sanitizer builds), its
// time is 20 s plus 1 s for each 10 MB of the file. The caller holds
// hdf5_lock() (hdf5_file.h), so no thread of this process is inside libhdf5
// when it forks.
Hdf5Preflight preflight_hdf5(const std::string& path);

}  // namespace mushroom::nn
