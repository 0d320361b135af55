#include "ladder/ladder.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "arena/arena.h"
#include "arena/boards_file.h"
#include "arena/cpu_affinity.h"
#include "arena/games_file.h"
#include "arena/program_fingerprint.h"
#include "arena/stats.h"
#include "ladder/program_spec.h"
#include "util/hash.h"
#include "util/log_stamp.h"
#include "util/progress.h"
#include "util/text.h"
#include "util/work_pool.h"

namespace mushroom {

namespace fs = std::filesystem;

namespace {

std::string game_key(const std::string& first, const std::string& second, int board) {
  return first + "|" + second + "|" + std::to_string(board);
}

// games/<first>_vs_<second>_b<board>_<hash>.log, readable and unique.
std::string log_name(const std::string& first, const std::string& second, int board) {
  auto plain = [](std::string s) {
    for (char& ch : s)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') ch = '_';
    return s;
  };
  char suffix[40];
  const std::string key = game_key(first, second, board);
  std::snprintf(suffix, sizeof(suffix), "_b%04d_%08x.log", board, unsigned(fnv1a64(key.data(), key.size()) & 0xffffffffu));
  return "games/" + plain(first) + "_vs_" + plain(second) + suffix;
}

// ladder.txt: the settings a ladder's games were played under.
std::string format_settings(const LadderConfig& c) {
  // A ladder on seeded boards keeps the settings it always had, so its
  // folder resumes; a boards file replaces the seed by the file's name and hash.
  const std::string boards = c.boards_given.empty() ? "seed=" + std::to_string(c.seed) + "\nboard_mode=" +
                                                          (c.board_mode == BoardMode::kUniform ? "uniform" : "sum10")
                                                    : "boards_file=" + c.boards_source;
  return boards + "\ntime_ms=" + std::to_string(c.referee.time_ms) + "\nclock=" + clock_name(c.referee.clock) + "\n";
}


// A known name must keep its command.
void check_known_commands(const std::string& dir, const std::vector<LadderProgram>& known,
                          const std::vector<LadderProgram>& programs) {
  for (const LadderProgram& p : programs) {
    auto it = std::find_if(known.begin(), known.end(), [&](const LadderProgram& k) { return k.name == p.name; });
    if (it != known.end() && canonical_program_command(it->command) != canonical_program_command(p.command))
      throw std::invalid_argument("program '" + p.name + "' of the ladder in " + dir + " is '" + it->command +
                                  "', not '" + p.command + "': give the new program another name");
  }
}

std::string changed_build_message(const std::string& dir, const std::string& path, const FingerprintChange& change) {
  return "program '" + change.name + "' of the ladder in " + dir + " played its games as another build: " +
         change.changes + ". Give the new build another name (" + path + " names the files it checks)";
}

std::set<std::string> programs_with_games(const std::vector<GameRecord>& games) {
  std::set<std::string> played;
  for (const GameRecord& g : games) played.insert({g.first, g.second});
  return played;
}

std::string fingerprints_path(const std::string& dir) { return (fs::path(dir) / "fingerprints.txt").string(); }

std::vector<NamedProgram> named_programs(const std::vector<LadderProgram>& programs) {
  std::vector<NamedProgram> named;
  for (const LadderProgram& p : programs) named.push_back({p.name, p.command});
  return named;
}

// Merges this run's programs into programs.txt: a known name must keep its
// command; new names are added at the end.
void merge_programs(const LadderConfig& config) {
  std::vector<LadderProgram> known = read_ladder_programs(config.dir);
  check_known_commands(config.dir, known, config.programs);
  bool changed = false;
  for (const LadderProgram& p : config.programs) {
    auto it = std::find_if(known.begin(), known.end(), [&](const LadderProgram& k) { return k.name == p.name; });
    if (it == known.end()) {
      known.push_back(p);
      changed = true;
    } else if (it->command != p.command) {
      it->command = p.command;  // the same program in today's spelling
      changed = true;
    }
  }
  if (!changed) return;
  std::string text;
  for (const LadderProgram& p : known) text += p.name + "\t" + p.command + "\n";
  write_file_atomic((fs::path(config.dir) / "programs.txt").string(), text);
}

// fingerprints.txt (arena/program_fingerprint.h): a program with games
// whose files have changed under the same command is refused by name; one
// without games, or from before fingerprints, has today's recorded.
void check_or_record_fingerprints(const LadderConfig& config, const std::vector<GameRecord>& done_games) {
  const std::string path = fingerprints_path(config.dir);
  if (const auto change =
          check_and_record_fingerprints(path, named_programs(config.programs), programs_with_games(done_games)))
    throw std::invalid_argument(changed_build_message(config.dir, path, *change));
}

struct ScheduledGame {
  int first, second;  // indices into config.programs
  int board;
};

std::vector<ScheduledGame> schedule(const LadderConfig& config) {
  const int n = int(config.programs.size());
  std::vector<std::pair<int, int>> pairs;
  if (config.gauntlet.empty()) {
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) pairs.push_back({i, j});
  } else {
    int g = -1;
    for (int i = 0; i < n; ++i)
      if (config.programs[size_t(i)].name == config.gauntlet) g = i;
    if (g < 0) throw std::invalid_argument("the gauntlet program '" + config.gauntlet + "' is not one of the programs");
    for (int i = 0; i < n; ++i)
      if (i != g) pairs.push_back({g, i});
  }
  // Board by board across all pairs, so a ladder stopped early is balanced.
  std::vector<ScheduledGame> games;
  for (int b = 0; b < config.boards; ++b)
    for (const auto& [x, y] : pairs) {
      games.push_back({x, y, b});
      games.push_back({y, x, b});
    }
  return games;
}

}  // namespace

std::vector<LadderProgram> read_ladder_programs(const std::string& dir) {
  const std::string path = (fs::path(dir) / "programs.txt").string();
  std::vector<LadderProgram> programs;
  if (!fs::exists(path)) return programs;
  int line_no = 0;
  std::set<std::string> seen;
  for (const std::string& line : split_lines(read_file(path))) {
    ++line_no;
    if (trim(line).empty()) continue;
    const size_t tab = line.find('\t');
    const std::string where = path + ":" + std::to_string(line_no);
    if (tab == std::string::npos) throw std::invalid_argument(where + ": expected 'name<TAB>command'");
    LadderProgram p{line.substr(0, tab), line.substr(tab + 1)};
    if (!valid_program_name(p.name)) throw std::invalid_argument(where + ": bad program name '" + p.name + "'");
    if (!seen.insert(p.name).second) throw std::invalid_argument(where + ": program '" + p.name + "' twice");
    programs.push_back(p);
  }
  return programs;
}

std::vector<GameRecord> read_ladder_games(const std::string& dir, bool repair) {
  return read_games_file((fs::path(dir) / "games.csv").string(), repair);
}

LadderStandings ladder_standings(const std::string& dir, const std::string& anchor) {
  const std::vector<LadderProgram> programs = read_ladder_programs(dir);
  const std::vector<GameRecord> games = read_ladder_games(dir, false);
  LadderStandings out;
  if (programs.empty()) return out;
  std::map<std::string, int> index;
  for (size_t i = 0; i < programs.size(); ++i) index[programs[i].name] = int(i);
  out.anchor = anchor.empty() ? programs[0].name : anchor;
  if (!index.count(out.anchor))
    throw std::invalid_argument("the anchor '" + out.anchor + "' is not a program of the ladder in " + dir);
  std::vector<LadderRow> rows(programs.size());
  for (size_t i = 0; i < programs.size(); ++i) rows[i].name = programs[i].name;
  std::vector<RatedGame> rated;
  for (const GameRecord& g : games) {
    for (const std::string* name : {&g.first, &g.second})
      if (!index.count(*name))
        throw std::invalid_argument(dir + "/games.csv names program '" + *name + "', which programs.txt lacks");
    const int f = index[g.first], s = index[g.second];
    rated.push_back({f, s, g.outcome});
    const int first_result = g.outcome > 0 ? 0 : g.outcome == 0 ? 1 : 2;  // W, D, L for the first mover
    rows[size_t(f)].first_wdl[first_result]++;
    rows[size_t(s)].second_wdl[2 - first_result]++;
    rows[size_t(f)].points += 0.5 * (1 + g.outcome);
    rows[size_t(s)].points += 0.5 * (1 - g.outcome);
    rows[size_t(f)].games++, rows[size_t(s)].games++;
    if (!g.forfeit_by.empty()) rows[size_t(index[g.forfeit_by])].forfeits++;
  }
  out.fit = fit_ratings(int(programs.size()), rated, index[out.anchor]);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].rating = out.fit.programs[i];
    if (rows[i].games == 0 && rows[i].name != out.anchor) rows[i].rating.rated = false;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const LadderRow& a, const LadderRow& b) {
    if (a.rating.rated != b.rating.rated) return a.rating.rated;
    return a.rating.elo > b.rating.elo;
  });
  out.rows = rows;
  out.games = int(games.size());
  // Head to head, each pair from the better ranked program's side.
  std::map<std::string, size_t> rank;
  for (size_t i = 0; i < rows.size(); ++i) rank[rows[i].name] = i;
  std::map<std::pair<size_t, size_t>, LadderPair> pairs;
  for (const GameRecord& g : games) {
    const bool first_ahead = rank[g.first] < rank[g.second];
    LadderPair& p = pairs[std::minmax(rank[g.first], rank[g.second])];
    p.a = first_ahead ? g.first : g.second;
    p.b = first_ahead ? g.second : g.first;
    const int a_outcome = first_ahead ? g.outcome : -g.outcome;
    (a_outcome > 0 ? p.wins : a_outcome < 0 ? p.losses : p.draws)++;
  }
  for (auto& [key, p] : pairs) {
    p.los = likelihood_of_superiority(p.wins, p.losses);
    out.pairs.push_back(p);
  }
  return out;
}

std::string format_head_to_head(const LadderStandings& s) {
  size_t width = 7;
  for (const LadderPair& p : s.pairs) width = std::max(width, p.a.size() + p.b.size() + 4);
  std::ostringstream out;
  out << "head to head" << std::string(width > 12 ? width - 12 : 0, ' ') << "   games   W-D-L        score    LOS\n";
  for (const LadderPair& p : s.pairs) {
    const std::string who = p.a + " vs " + p.b;
    const std::string wdl = std::to_string(p.wins) + "-" + std::to_string(p.draws) + "-" + std::to_string(p.losses);
    char line[64];
    std::snprintf(line, sizeof(line), "   %5d   %-11s %5.1f%%  %5.1f%%", p.wins + p.draws + p.losses, wdl.c_str(),
                  100 * p.score(), 100 * p.los);
    out << who << std::string(width - who.size(), ' ') << line << "\n";
  }
  return out.str();
}

std::string format_standings(const LadderStandings& s) {
  std::ostringstream out;
  size_t width = 7;
  for (const LadderRow& r : s.rows) width = std::max(width, r.name.size());
  auto pad = [](std::string text, size_t w, bool left) {
    if (text.size() >= w) return text;
    return left ? text + std::string(w - text.size(), ' ') : std::string(w - text.size(), ' ') + text;
  };
  auto elo = [](double v) { return (v >= 0 ? "+" : "") + format_fixed(v, 0); };
  auto wdl = [](const int* x) { return std::to_string(x[0]) + "-" + std::to_string(x[1]) + "-" + std::to_string(x[2]); };
  out << pad("rank", 4, false) << "  " << pad("program", width, true) << "  " << pad("Elo", 6, false) << "  "
      << pad("95% interval", 15, true) << pad("games", 6, false) << pad("score", 8, false) << "  "
      << pad("first W-D-L", 12, true) << "  " << pad("second W-D-L", 12, true) << "  forfeits\n";
  int rank = 0;
  for (const LadderRow& r : s.rows) {
    const bool rated = r.rating.rated;
    const std::string interval =
        !rated ? "(not rated)" : r.name == s.anchor ? "(anchor)" : "[" + elo(r.rating.low) + ", " + elo(r.rating.high) + "]";
    out << pad(rated ? std::to_string(++rank) : "-", 4, false) << "  " << pad(r.name, width, true) << "  "
        << pad(rated ? elo(r.rating.elo) : "", 6, false) << "  " << pad(interval, 15, true)
        << pad(std::to_string(r.games), 6, false)
        << pad(r.games ? format_fixed(100.0 * r.points / r.games, 1) + "%" : "", 8, false) << "  "
        << pad(wdl(r.first_wdl), 12, true) << "  " << pad(wdl(r.second_wdl), 12, true) << "  " << r.forfeits << "\n";
  }
  out << s.games << " games; anchor " << s.anchor << " = 0; first-move advantage " << elo(s.fit.advantage) << " Elo ["
      << elo(s.fit.advantage_low) << ", " << elo(s.fit.advantage_high) << "]; draw width " << format_fixed(s.fit.draw_width, 0)
      << " Elo\n";
  return out.str();
}

void check_ladder_programs(const std::string& dir, const std::vector<LadderProgram>& programs) {
  check_known_commands(dir, read_ladder_programs(dir), programs);
  const std::string path = fingerprints_path(dir);
  if (const auto change =
          check_fingerprints(path, named_programs(programs), programs_with_games(read_ladder_games(dir, false))))
    throw std::invalid_argument(changed_build_message(dir, path, *change));
}

LadderRunSummary run_ladder(const LadderConfig& config, std::ostream& progress) {
  if (config.programs.size() < 2) throw std::invalid_argument("a ladder needs at least two programs");
  if (config.boards < 1) throw std::invalid_argument("--boards must be at least 1");
  check_boards_given(config.boards, config.boards_given);
  if (config.parallel < 1) throw std::invalid_argument("--parallel must be at least 1");
  std::set<std::string> names;
  for (const LadderProgram& p : config.programs) {
    if (!valid_program_name(p.name))
      throw std::invalid_argument("program name '" + p.name + "': use letters, digits and . _ - / : + = @ only");
    if (!names.insert(p.name).second) throw std::invalid_argument("program '" + p.name + "' is given twice");
    if (p.command.find_first_of("\t\n") != std::string::npos)
      throw std::invalid_argument("program '" + p.name + "': its command holds a tab or a newline");
  }
  fs::create_directories(fs::path(config.dir) / "games");
  check_or_write_settings_file((fs::path(config.dir) / "ladder.txt").string(), format_settings(config),
                               "the ladder in " + config.dir, "use those settings, or another ladder folder");
  merge_programs(config);
  const std::string games_path = (fs::path(config.dir) / "games.csv").string();
  const std::vector<GameRecord> done_games = read_ladder_games(config.dir, true);
  check_or_record_fingerprints(config, done_games);
  if (!fs::exists(games_path) || fs::file_size(games_path) == 0) append_line_durably(games_path, kGamesFileHeader);
  std::set<std::string> done;
  for (const GameRecord& g : done_games) done.insert(game_key(g.first, g.second, g.board));

  LadderRunSummary summary;
  std::vector<ScheduledGame> pending;
  for (const ScheduledGame& g : schedule(config)) {
    if (done.count(game_key(config.programs[size_t(g.first)].name, config.programs[size_t(g.second)].name, g.board)))
      ++summary.already_done;
    else
      pending.push_back(g);
  }
  progress << log_time_stamp() << " ladder " << config.dir << ": " << pending.size() << " games to play, " << summary.already_done
           << " already played" << std::endl;
  // The stage's items for the progress reporter (its caller begins the
  // stage); the games already played count as done.
  mushroom::progress().set_total(int64_t(pending.size()) + summary.already_done, summary.already_done);

  std::mutex mutex;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<int> cpus = allowed_cpus();  // --pin stays inside this process's mask
  // The programs that have answered OK at least once, here or in a game read
  // back: one that never has and cannot start stops the ladder.
  std::set<std::string> answered_ok;
  for (const GameRecord& g : done_games)
    if (g.forfeit_by.empty()) answered_ok.insert({g.first, g.second});
  auto play = [&](int i, int slot) {
    const ScheduledGame& s = pending[size_t(i)];
    const LadderProgram& first = config.programs[size_t(s.first)];
    const LadderProgram& second = config.programs[size_t(s.second)];
    GameRecord g;
    g.first = first.name, g.second = second.name, g.board = s.board;
    const bool given = !config.boards_given.empty();
    g.board_seed = given ? 0 : arena_board_seed(config.seed, s.board);
    RefereeConfig rc = config.referee;
    rc.cpu[0] = rc.cpu[1] = config.pin ? cpus[size_t(slot) % cpus.size()] : -1;
    const Position start = given ? config.boards_given[size_t(s.board)] : random_board(g.board_seed, config.board_mode);
    const RefereeResult r = referee_game(first.command, second.command, start, rc);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (r.answered_ok[kFirst]) answered_ok.insert(first.name);
      if (r.answered_ok[kSecond]) answered_ok.insert(second.name);
      const LadderProgram& failed = r.log.aborted_by == kFirst ? first : second;
      if (r.start_failed && !answered_ok.count(failed.name))
        throw ProgramStartError("program " + failed.name + " (" + failed.command + ") could not start: " +
                                r.log.abort_reason + ". The ladder stops; fix the command and run it again");
    }
    g.first_score = r.log.score_first, g.second_score = r.log.score_second;
    g.outcome = r.outcome();
    if (r.log.aborted_by) g.forfeit_by = *r.log.aborted_by == kFirst ? first.name : second.name;
    g.reason = r.log.abort_reason;
    g.log = log_name(first.name, second.name, s.board);
    write_file_atomic((fs::path(config.dir) / g.log).string(), format_game_log(r.log));
    std::lock_guard<std::mutex> lock(mutex);
    append_line_durably(games_path, format_game_record(g));
    ++summary.played;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress << log_time_stamp() << " [" << summary.played << "/" << pending.size() << "] board " << s.board << ": "
             << first.name << " (first) " << r.log.score_first << " - " << r.log.score_second << " " << second.name
             << (g.outcome > 0 ? ": first wins" : g.outcome < 0 ? ": second wins" : ": draw");
    if (!g.forfeit_by.empty()) progress << " (" << g.forfeit_by << " forfeits: " << g.reason << ")";
    progress << "   " << elapsed_and_left(elapsed, summary.played, int64_t(pending.size()) - summary.played) << std::endl;
    mushroom::progress().add();
  };
  // A game that cannot be recorded (the disk) stops the ladder: the error
  // is rethrown once the games in progress end.
  run_jobs(int(pending.size()), config.parallel, play);
  return summary;
}

}  // namespace mushroom
