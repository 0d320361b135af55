// For tests that write files: a folder of their own under the temp
// directory, removed with everything in it when it goes out of scope (a
// function-local static one: when the test process exits).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace mushroom {

class ScratchFolder {
 public:
  // <temp>/<prefix>_<pid>, made now.
  explicit ScratchFolder(const std::string& prefix)
      : dir_(std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// The test process's own scratch folder, <temp>/mushroom-tests_<pid>, made
// on first use and removed when the process exits: for tests that name
// their files or folders under it rather than keep a ScratchFolder.
inline const std::filesystem::path& test_scratch_dir() {
  static const ScratchFolder folder("mushroom-tests");
  return folder.dir();
}

}  // namespace mushroom
