#include "util/data_roots.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace mushroom {
namespace {

const char* const kDataVariable = "MUSHROOM_DATA";

std::string data_variable() {
  const char* value = std::getenv(kDataVariable);
  return value ? value : "";
}

// The running executable, "" where /proc does not say.
fs::path own_executable() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : exe;
}

// Whether `path` lies inside `folder` (both absolute).
bool inside(const fs::path& path, const fs::path& folder) {
  std::error_code error;
  const fs::path canonical_folder = fs::canonical(folder, error);
  if (error) return false;
  const fs::path relative = path.lexically_relative(canonical_folder);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::vector<DataRoot> data_roots() {
  std::vector<DataRoot> roots{{"", "the working folder"}};
  if (const std::string data = data_variable(); !data.empty()) {
    if (!fs::is_directory(data))
      throw std::runtime_error("$" + std::string(kDataVariable) + " is " + data +
                               ", which is not a folder: set it to a folder that holds models/ and configs/ as "
                               "share/mushroom does, or unset it");
    roots.push_back({data, "$" + std::string(kDataVariable)});
  }
  const fs::path exe = own_executable();
  if (exe.empty()) return roots;
  // A binary in its build tree reads the checkout it was built from; an
  // installed one, the share/mushroom beside its bin/.
#if defined(MUSHROOM_BINARY_DIR) && defined(MUSHROOM_SOURCE_DIR)
  if (inside(exe, MUSHROOM_BINARY_DIR)) {
    roots.push_back({MUSHROOM_SOURCE_DIR, "the source tree of this build"});
    return roots;
  }
#endif
  roots.push_back({(exe.parent_path().parent_path() / "share" / "mushroom").string(), "this executable's prefix"});
  return roots;
}

namespace {

// Where `relative` is looked for, in order, each with how a message names it;
// an unset $MUSHROOM_DATA is named with no path.
struct Place {
  std::string label;
  fs::path path;
};

std::vector<Place> places(const std::string& relative) {
  std::vector<Place> out;
  for (const DataRoot& root : data_roots()) {
    if (root.folder.empty()) {
      out.push_back({relative + " in " + root.what, relative});
      if (data_variable().empty()) out.push_back({"$" + std::string(kDataVariable) + " (not set)", {}});
    } else {
      const fs::path path = fs::path(root.folder) / relative;
      out.push_back({path.string() + " (" + root.what + ")", path});
    }
  }
  return out;
}

std::string joined_labels(const std::vector<Place>& all) {
  std::string out;
  for (const Place& place : all) out += (out.empty() ? "" : ", ") + place.label;
  return out;
}

// The first of `all` that exists, or nullptr.
const Place* first_existing(const std::vector<Place>& all) {
  for (const Place& place : all)
    if (!place.path.empty() && fs::exists(place.path)) return &place;
  return nullptr;
}

}  // namespace

std::optional<std::string> find_in_data_roots(const std::string& relative) {
  const std::vector<Place> all = places(relative);
  const Place* found = first_existing(all);
  return found ? std::optional<std::string>(found->path.string()) : std::nullopt;
}

std::string places_looked(const std::string& relative) { return joined_labels(places(relative)); }

std::string defaults_origin() {
  const std::vector<Place> all = places("models/eval.bin");
  const Place* found = first_existing(all);
  std::string out = "defaults: " + (found ? found->label
                                          : "none found; set $" + std::string(kDataVariable) +
                                                " to a folder that holds models/ and configs/ as share/mushroom does") +
                    "\nlooked for in order: " + joined_labels(all);
  if (const char* eval = std::getenv("MUSHROOM_EVAL"); eval && *eval)
    out += "\n$MUSHROOM_EVAL names the evaluation: " + std::string(eval);
  return out;
}

}  // namespace mushroom
