#include "arena/program_fingerprint.h"

#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "util/hash.h"
#include "util/text.h"

namespace mushroom {

namespace fs = std::filesystem;

namespace {

std::string unquoted(std::string_view word) {
  std::string out;
  char quote = 0;
  for (char c : word) {
    if (quote) {
      if (c == quote) quote = 0;
      else out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else {
      out += c;
    }
  }
  return out;
}

// PATH -> HASH of a fingerprint's text.
std::map<std::string, std::string> entries_of(const std::string& fingerprint) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start < fingerprint.size()) {
    size_t end = fingerprint.find(';', start);
    if (end == std::string::npos) end = fingerprint.size();
    const std::string entry = fingerprint.substr(start, end - start);
    const size_t at = entry.rfind('@');
    if (at != std::string::npos) out[entry.substr(0, at)] = entry.substr(at + 1);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string program_fingerprint(const std::string& command) {
  std::vector<std::string> words;
  for (std::string_view w : split_words(command)) words.push_back(unquoted(w));
  fs::path dir;
  size_t first = 0;
  if (words.size() >= 3 && words[0] == "cd" && words[2] == "&&") dir = words[1], first = 3;
  std::set<std::string> candidates;
  for (size_t i = first; i < words.size(); ++i) {
    const std::string& w = words[i];
    candidates.insert(w);
    // The values inside an agent spec (alphabeta:eval=F,depth=3).
    size_t start = 0;
    for (size_t j = 0; j <= w.size(); ++j)
      if (j == w.size() || w[j] == ':' || w[j] == ',' || w[j] == '=') {
        if (j > start) candidates.insert(w.substr(start, j - start));
        start = j + 1;
      }
  }
  candidates.insert("data.bin");
  std::set<std::string> entries;
  for (const std::string& c : candidates) {
    const fs::path path = fs::path(c).is_absolute() || dir.empty() ? fs::path(c) : dir / c;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    const std::string bytes = read_file(path.string());
    entries.insert(path.lexically_normal().string() + "@" + fnv1a64_hex(bytes.data(), bytes.size()));
  }
  std::string out;
  for (const std::string& e : entries) out += (out.empty() ? "" : ";") + e;
  return out;
}

std::string fingerprint_changes(const std::string& recorded, const std::string& now) {
  const auto was = entries_of(recorded), is = entries_of(now);
  std::string out;
  auto add = [&](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  for (const auto& [path, hash] : was) {
    const auto it = is.find(path);
    if (it == is.end()) add(path + " is gone");
    else if (it->second != hash) add(path + " changed (hash " + hash + " then, " + it->second + " now)");
  }
  for (const auto& [path, hash] : is)
    if (!was.count(path)) add(path + " is new");
  return out;
}

namespace {

// fingerprints.txt: NAME -> fingerprint (empty when the file is not there).
std::map<std::string, std::string> read_fingerprints(const std::string& path) {
  std::map<std::string, std::string> recorded;
  if (fs::exists(path))
    for (const std::string& line : split_lines(read_file(path))) {
      const size_t tab = line.find('\t');
      if (tab != std::string::npos) recorded[line.substr(0, tab)] = line.substr(tab + 1);
    }
  return recorded;
}

std::optional<FingerprintChange> first_change(const std::map<std::string, std::string>& recorded,
                                              const std::vector<NamedProgram>& programs,
                                              const std::set<std::string>& played) {
  for (const NamedProgram& p : programs) {
    const auto it = recorded.find(p.name);
    if (it == recorded.end() || !played.count(p.name)) continue;
    if (std::string changes = fingerprint_changes(it->second, program_fingerprint(p.command)); !changes.empty())
      return FingerprintChange{p.name, std::move(changes)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<FingerprintChange> check_fingerprints(const std::string& path, const std::vector<NamedProgram>& programs,
                                                    const std::set<std::string>& played) {
  return first_change(read_fingerprints(path), programs, played);
}

std::optional<FingerprintChange> check_and_record_fingerprints(const std::string& path,
                                                               const std::vector<NamedProgram>& programs,
                                                               const std::set<std::string>& played) {
  const std::map<std::string, std::string> recorded = read_fingerprints(path);
  if (auto change = first_change(recorded, programs, played)) return change;
  std::map<std::string, std::string> now = recorded;
  for (const NamedProgram& p : programs) now[p.name] = program_fingerprint(p.command);
  if (now == recorded && fs::exists(path)) return std::nullopt;
  std::string text;
  for (const auto& [name, fingerprint] : now) text += name + "\t" + fingerprint + "\n";
  write_file_atomic(path, text);
  return std::nullopt;
}

}  // namespace mushroom
