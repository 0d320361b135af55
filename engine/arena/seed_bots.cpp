#include "arena/seed_bots.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "util/text.h"

namespace fs = std::filesystem;

namespace mushroom {

std::string find_seeds_dir() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("MUSHROOM_SEEDS_DIR")) candidates.emplace_back(env);
#ifdef MUSHROOM_SOURCE_DIR
  candidates.push_back(fs::path(MUSHROOM_SOURCE_DIR) / ".." / "shared" / "seeds");
#endif
  candidates.push_back(fs::current_path() / ".." / "shared" / "seeds");
  std::string tried;
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return fs::weakly_canonical(dir).string();
    tried += " " + dir.string();
  }
  throw std::runtime_error("seed documents not found; looked in:" + tried + " (set MUSHROOM_SEEDS_DIR)");
}

std::string extract_seed_greedy(const std::string& out_dir) {
  const fs::path dir = find_seeds_dir();
  fs::path seed_file;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("000_", 0) == 0 && entry.path().extension() == ".txt") seed_file = entry.path();
  }
  if (seed_file.empty()) throw std::runtime_error("no seed 000 file (000_*.txt) in " + dir.string());
  const std::string text = read_file(seed_file.string());
  // The code follows the line that reads "코드:" ("code:") and runs to the end.
  const std::string marker = "\xEC\xBD\x94\xEB\x93\x9C:";
  const size_t at = text.find(marker);
  if (at == std::string::npos) throw std::runtime_error("no code block (a line '코드:') in " + seed_file.string());
  const size_t code_start = text.find('\n', at);
  std::string code = code_start == std::string::npos ? "" : text.substr(code_start + 1);
  if (code.find("class Game") == std::string::npos || code.find("def main") == std::string::npos ||
      code.find("calculateMove") == std::string::npos)
    throw std::runtime_error("the code in " + seed_file.string() + " is not the expected greedy bot");
  if (!code.empty() && code.back() != '\n') code += '\n';
  fs::create_directories(out_dir);
  const std::string path = (fs::path(out_dir) / "seed_greedy.py").string();
  write_file_atomic(path, code);
  return path;
}

}  // namespace mushroom
