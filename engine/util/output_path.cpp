#include "util/output_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace mushroom {

namespace fs = std::filesystem;

void check_output_path(const std::string& path, const std::string& option) {
  const std::string what = "--" + option + " " + path + ": ";
  if (path.empty()) throw std::invalid_argument("--" + option + " needs a file name");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw std::invalid_argument(what + "is a folder; give a file name in it");
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::exists(parent, ec)) throw std::invalid_argument(what + "the folder " + parent.string() + " does not exist");
  if (!fs::is_directory(parent, ec)) throw std::invalid_argument(what + parent.string() + " is not a folder");
  // Tried, not reasoned about: permissions, a read-only file system and
  // root's rights all answer as the file's own temp file would.
  const fs::path probe = parent / (".mushroom-write-check." + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw std::invalid_argument(what + "the folder " + parent.string() + " cannot be written");
  ::close(fd);
  fs::remove(probe, ec);
}

}  // namespace mushroom
