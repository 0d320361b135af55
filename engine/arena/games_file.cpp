#include "arena/games_file.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <unistd.h>

#include "mushroom/move.h"
#include "util/csv.h"
#include "util/text.h"

namespace mushroom {

const char* const kGamesFileHeader =
    "first,second,board,board_seed,first_score,second_score,outcome,forfeit_by,reason,log";

namespace {

// The key=value lines on which two settings files differ, one per key:
// "  a: played as X, asked for Y".
std::string settings_difference(const std::string& played, const std::string& asked) {
  auto lines_of = [](const std::string& text) {
    std::map<std::string, std::string> out;
    for (const std::string& line : split_lines(text)) {
      const size_t eq = line.find('=');
      out[line.substr(0, eq)] = eq == std::string::npos ? "" : line.substr(eq + 1);
    }
    return out;
  };
  const auto was = lines_of(played), now = lines_of(asked);
  std::set<std::string> keys;
  for (const auto& [key, value] : was) keys.insert(key);
  for (const auto& [key, value] : now) keys.insert(key);
  std::string out;
  auto shown = [](const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? std::string("(not set)") : "'" + it->second + "'";
  };
  for (const std::string& key : keys)
    if (shown(was, key) != shown(now, key))
      out += "  " + key + ": played as " + shown(was, key) + ", asked for " + shown(now, key) + "\n";
  return out;
}

std::string game_key(const GameRecord& g) { return g.first + "|" + g.second + "|" + std::to_string(g.board); }

}  // namespace

bool valid_program_name(const std::string& name) {
  if (name.empty() || name.size() > 200) return false;
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("._-/:+=@", ch))) return false;
  return true;
}

std::string format_game_record(const GameRecord& g) {
  return csv_row({g.first, g.second, std::to_string(g.board), std::to_string(g.board_seed), std::to_string(g.first_score),
                  std::to_string(g.second_score), std::to_string(g.outcome), g.forfeit_by, g.reason, g.log});
}

GameRecord parse_game_record(const std::string& line, const std::string& where) {
  return parse_game_fields(split_csv_fields(line, where), where);
}

GameRecord parse_game_fields(const std::vector<std::string>& f, const std::string& where) {
  if (f.size() != 10)
    throw std::invalid_argument(where + ": expected 10 comma-separated fields (" + kGamesFileHeader + "), found " +
                                std::to_string(f.size()));
  GameRecord g;
  g.first = f[0], g.second = f[1];
  if (!valid_program_name(g.first) || !valid_program_name(g.second) || g.first == g.second)
    throw std::invalid_argument(where + ": bad program names '" + g.first + "' and '" + g.second + "'");
  auto number = [&](const std::string& text, const char* field, int lo, int hi) {
    int v = 0;
    if (!parse_int(text, v) || v < lo || v > hi)
      throw std::invalid_argument(where + ": field " + field + " is '" + text + "', not an integer in [" +
                                  std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  };
  g.board = number(f[2], "board", 0, 1000000000);
  try {
    size_t used = 0;
    g.board_seed = std::stoull(f[3], &used);
    if (used != f[3].size() || f[3][0] == '-') throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw std::invalid_argument(where + ": field board_seed is '" + f[3] + "', not an unsigned integer");
  }
  g.first_score = number(f[4], "first_score", 0, kRows * kCols);
  g.second_score = number(f[5], "second_score", 0, kRows * kCols);
  g.outcome = number(f[6], "outcome", -1, 1);
  g.forfeit_by = f[7];
  if (!g.forfeit_by.empty() && g.forfeit_by != g.first && g.forfeit_by != g.second)
    throw std::invalid_argument(where + ": forfeit_by '" + g.forfeit_by + "' played no part in this game");
  g.reason = f[8];
  g.log = f[9];
  return g;
}

std::vector<GameRecord> read_games_file(const std::string& path, bool repair) {
  std::vector<GameRecord> games;
  if (!std::filesystem::exists(path)) return games;
  const std::string text = read_file(path);
  const CsvText csv = parse_csv(text, path);
  // A torn last record (cut by a kill before its line end): the game it
  // was recording counts as not played.
  if (csv.complete_bytes != text.size() && repair) write_file_atomic(path, text.substr(0, csv.complete_bytes));
  if (csv.records.empty()) return games;
  if (csv_row(csv.records[0].fields) != kGamesFileHeader)
    throw std::invalid_argument(path + ":1: not a games file (expected the header '" + std::string(kGamesFileHeader) +
                                "')");
  std::set<std::string> keys;
  for (size_t i = 1; i < csv.records.size(); ++i) {
    const CsvRecord& record = csv.records[i];
    const std::string where = path + ":" + std::to_string(record.line);
    if (record.fields.size() == 1 && record.fields[0].empty()) throw std::invalid_argument(where + ": empty line");
    GameRecord g = parse_game_fields(record.fields, where);
    if (!keys.insert(game_key(g)).second)
      throw std::invalid_argument(where + ": the game " + g.first + " (first) vs " + g.second + " on board " +
                                  std::to_string(g.board) + " appears twice");
    games.push_back(std::move(g));
  }
  return games;
}

void append_line_durably(const std::string& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  const std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw std::runtime_error("cannot append to " + path + ": " + why);
    }
    done += size_t(n);
  }
  ::fsync(fd);
  ::close(fd);
}

std::optional<GameRecord> game_record_of_log(const std::string& log_path) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::absolute(log_path).parent_path();
  const fs::path games = folder / "games.csv";
  if (!fs::exists(games)) return std::nullopt;
  std::error_code error;
  const fs::path wanted = fs::weakly_canonical(log_path, error);
  for (const GameRecord& r : read_games_file(games.string(), false))
    if (!r.log.empty() && fs::weakly_canonical(folder / r.log, error) == wanted) return r;
  return std::nullopt;
}

void start_games_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0)
    append_line_durably(path, kGamesFileHeader);
}

void check_or_write_settings_file(const std::string& path, const std::string& wanted, const std::string& what,
                                  const std::string& advice,
                                  const std::function<std::string(const std::string&)>& normalize) {
  if (!std::filesystem::exists(path)) {
    write_file_atomic(path, wanted);
    return;
  }
  const std::string found = read_file(path);
  if (found == wanted) return;
  if (normalize && normalize(found) == normalize(wanted)) {
    write_file_atomic(path, wanted);
    return;
  }
  throw std::invalid_argument(what + " was played under other settings:\n" + settings_difference(found, wanted) + advice);
}

}  // namespace mushroom
