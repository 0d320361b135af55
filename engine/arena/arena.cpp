#include "arena/arena.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "arena/arena_report.h"
#include "arena/boards_file.h"
#include "arena/cpu_affinity.h"
#include "arena/program_command.h"
#include "arena/program_fingerprint.h"
#include "util/log_stamp.h"
#include "util/progress.h"
#include "util/rng.h"
#include "util/text.h"
#include "util/work_pool.h"

namespace mushroom {

int ArenaGame::a_margin() const {
  const Player a = a_first ? kFirst : kSecond;
  return result.score(a) - result.score(Player(1 - a));
}

int ArenaGame::forfeiter() const {
  if (!result.log.aborted_by) return -1;
  const bool first_forfeits = *result.log.aborted_by == kFirst;
  return first_forfeits == a_first ? 0 : 1;
}

uint64_t arena_board_seed(uint64_t seed, int board) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + uint64_t(board);
  return Rng::splitmix64(x);
}

std::vector<double> pair_scores(const std::vector<ArenaGame>& games) {
  std::map<int, std::vector<const ArenaGame*>> by_board;
  for (const ArenaGame& g : games) by_board[g.board].push_back(&g);
  std::vector<double> scores;
  for (const auto& [board, pair] : by_board) {
    if (pair.size() != 2) continue;
    double s = 0;
    for (const ArenaGame* g : pair) s += 0.5 * (1 + g->a_outcome()) / 2.0;
    scores.push_back(s);
  }
  return scores;
}

namespace {

std::string game_file(const std::string& dir, int index, const std::string& suffix) {
  char name[64];
  std::snprintf(name, sizeof(name), "game-%04d%s", index, suffix.c_str());
  return (std::filesystem::path(dir) / name).string();
}

void remove_if_empty(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) == 0) std::filesystem::remove(path, ec);
}

}  // namespace

std::string match_summary(const ArenaConfig& config, const std::vector<ArenaGame>& games) {
  double points = 0;
  for (const ArenaGame& g : games) points += 0.5 * (1 + g.a_outcome());
  const auto pairs = pair_scores(games);
  const auto penta = pentanomial_counts(pairs);
  std::ostringstream out;
  out << config.label[0] << " " << points << "/" << games.size() << "  penta [" << penta[0] << " " << penta[1] << " "
      << penta[2] << " " << penta[3] << " " << penta[4] << "]";
  const NormalizedElo n = normalized_elo(pairs);
  if (n.valid)
    out << "  nElo " << (n.nelo >= 0 ? "+" : "") << format_fixed(n.nelo, 1) << " [" << format_fixed(n.low, 1) << ", "
        << format_fixed(n.high, 1) << "]";
  if (config.sprt)
    out << "  LLR " << format_fixed(config.sprt->llr(pairs), 2) << " [" << format_fixed(config.sprt->lower_bound(), 2)
        << ", " << format_fixed(config.sprt->upper_bound(), 2) << "]";
  if (config.margin_sprt) {
    const auto margins = pair_margins(games, config.margin_cap, true);
    const MeanSprt test = config.margin_sprt->on_margins();
    out << "  capped margin " << format_signed(mean_interval(margins).mean, 2) << "  margin LLR "
        << format_fixed(test.llr(margins), 2) << " [" << format_fixed(test.lower_bound(), 2) << ", "
        << format_fixed(test.upper_bound(), 2) << "]";
  }
  return out.str();
}

namespace {

// The start of pair `board`: a given board, or the seeded one.
Position board_start(const ArenaConfig& config, int board) {
  if (!config.boards_given.empty()) return config.boards_given[size_t(board)];
  return random_board(arena_board_seed(config.seed, board), config.board_mode);
}

uint64_t board_seed_of(const ArenaConfig& config, int board) {
  return config.boards_given.empty() ? arena_board_seed(config.seed, board) : 0;
}

// arena.txt: what a log folder's games were played under. A resumed match
// must agree; --boards, --parallel and --sprt may change.
std::string format_arena_settings(const ArenaConfig& c) {
  return "a=" + c.command[0] + "\nb=" + c.command[1] + "\na_name=" + c.label[0] + "\nb_name=" + c.label[1] +
         "\nboards_file=" + c.boards_source + "\nseed=" + (c.boards_given.empty() ? std::to_string(c.seed) : "") +
         "\nboard_mode=" + (c.board_mode == BoardMode::kUniform ? "uniform" : "sum10") +
         "\ntime_ms=" + std::to_string(c.referee.time_ms) + "\nclock=" + clock_name(c.referee.clock) + "\n" +
         (c.b_time_ms > 0 ? "b_time_ms=" + std::to_string(c.b_time_ms) + "\n" : "");
}

// arena.txt with its programs in one spelling (arena/program_command.h): a
// match begun before agents were spelled NAME:key=value,... resumes.
std::string canonical_arena_settings(const std::string& text) {
  std::string out;
  for (const std::string& line : split_lines(text)) {
    const bool program = line.rfind("a=", 0) == 0 || line.rfind("b=", 0) == 0;
    out += (program ? line.substr(0, 2) + canonical_program_command(line.substr(2)) : line) + "\n";
  }
  return out;
}

// fingerprints.txt (arena/program_fingerprint.h), A as "a" and B as "b":
// games already played by other bytes under the same command refuse the
// resume, naming the files; a folder from before fingerprints, or without
// games yet, records today's.
void check_or_record_fingerprints(const ArenaConfig& config, const std::string& path, bool has_games) {
  const auto change = check_and_record_fingerprints(path, {{"a", config.command[0]}, {"b", config.command[1]}},
                                                    has_games ? std::set<std::string>{"a", "b"} : std::set<std::string>{});
  if (!change) return;
  const int side = change->name == "a" ? 0 : 1;
  throw std::invalid_argument("the match in " + config.log_dir + " was played by another build of " +
                              std::string(side == 0 ? "A" : "B") + " (" + config.label[side] + "): " + change->changes +
                              ". Its games are not this program's: use another --log-dir (or " + path +
                              " names the files it checks)");
}

GameRecord record_of(const ArenaConfig& config, const ArenaGame& g, int index) {
  const int first = g.a_first ? 0 : 1;
  GameRecord r;
  r.first = config.label[first], r.second = config.label[1 - first];
  r.board = g.board, r.board_seed = g.board_seed;
  r.first_score = g.result.log.score_first, r.second_score = g.result.log.score_second;
  r.outcome = g.result.outcome();
  if (g.forfeiter() >= 0) r.forfeit_by = config.label[g.forfeiter()];
  r.reason = g.result.log.abort_reason;
  r.log = game_file("", index, ".log");  // relative to the folder
  return r;
}

// A finished game read back from games.csv; throws naming `where` when it
// is not a game of this match.
ArenaGame game_of(const ArenaConfig& config, const GameRecord& r, const std::string& where) {
  const bool a_first = r.first == config.label[0];
  if (!(a_first ? r.second == config.label[1] : r.first == config.label[1] && r.second == config.label[0]))
    throw std::invalid_argument(where + ": a game between " + r.first + " and " + r.second + ", not " + config.label[0] +
                                " and " + config.label[1]);
  if (r.board_seed != board_seed_of(config, r.board))
    throw std::invalid_argument(where + ": board " + std::to_string(r.board) + " has seed " +
                                std::to_string(r.board_seed) + ", not this match's " +
                                std::to_string(board_seed_of(config, r.board)));
  ArenaGame g;
  g.board = r.board, g.a_first = a_first, g.board_seed = r.board_seed;
  GameLog& log = g.result.log;
  log.start = board_start(config, r.board);
  log.score_first = r.first_score, log.score_second = r.second_score;
  if (!r.forfeit_by.empty()) log.aborted_by = r.forfeit_by == r.first ? kFirst : kSecond;
  log.abort_reason = r.reason;
  log.finished = !log.aborted_by;
  if (g.result.outcome() != r.outcome)
    throw std::invalid_argument(where + ": outcome " + std::to_string(r.outcome) + " does not follow from its scores "
                                "and forfeit");
  g.done = true;
  return g;
}

}  // namespace

ArenaResume resume_arena_games(const ArenaConfig& config, const std::vector<GameRecord>& records,
                               const std::string& games_path) {
  ArenaResume resume;
  resume.games.resize(size_t(2 * config.boards));
  int line = 1;
  for (const GameRecord& r : records) {
    const std::string where = games_path + ":" + std::to_string(++line);
    if (r.board >= config.boards) {
      ++resume.beyond;
      continue;
    }
    ArenaGame g = game_of(config, r, where);
    const int index = 2 * g.board + (g.a_first ? 0 : 1);  // read_games_file refuses a game twice
    resume.games[size_t(index)] = g;
    resume.order.push_back(index);
  }
  return resume;
}

ArenaReport run_arena(const ArenaConfig& config, std::ostream& progress) {
  if (config.boards < 1) throw std::invalid_argument("--boards must be at least 1");
  if (config.parallel < 1) throw std::invalid_argument("--parallel must be at least 1");
  if (config.stop_on_margin ? !config.margin_sprt : config.margin_sprt && !config.sprt)
    throw std::invalid_argument(config.stop_on_margin ? "the margin test is to stop the match, but none is set"
                                                      : "a margin test with no W/D/L test: nothing would stop the match");
  if (config.sprt && config.sprt->min_games < 0)
    throw std::invalid_argument("--sprt-min-games must be at least 0, got " + std::to_string(config.sprt->min_games));
  if (config.margin_sprt) check_margin_sprt(*config.margin_sprt, config.margin_cap);
  else check_margin_cap(config.margin_cap);
  check_boards_given(config.boards, config.boards_given);

  const int total = 2 * config.boards;
  std::vector<ArenaGame> games(static_cast<size_t>(total));
  ArenaReport report;
  std::vector<int> resumed_order;  // games read back, in games.csv's order: the order they finished
  std::string games_path;
  if (!config.log_dir.empty()) {
    for (int side = 0; side < 2; ++side)
      if (!valid_program_name(config.label[side]))
        throw std::invalid_argument("program name '" + config.label[side] +
                                    "' cannot go in games.csv: use letters, digits and . _ - / : + = @ only");
    if (config.label[0] == config.label[1]) throw std::invalid_argument("the two programs need different names");
    std::filesystem::create_directories(config.log_dir);
    check_or_write_settings_file((std::filesystem::path(config.log_dir) / "arena.txt").string(),
                                 format_arena_settings(config), "the match in " + config.log_dir,
                                 "use those settings to resume it, or another --log-dir", canonical_arena_settings);
    games_path = (std::filesystem::path(config.log_dir) / "games.csv").string();
    const std::vector<GameRecord> records = read_games_file(games_path, true);
    check_or_record_fingerprints(config, (std::filesystem::path(config.log_dir) / "fingerprints.txt").string(),
                                 !records.empty());
    ArenaResume resume = resume_arena_games(config, records, games_path);
    games = std::move(resume.games);
    resumed_order = std::move(resume.order);
    report.resumed = int(resumed_order.size());
    const int beyond = resume.beyond;
    start_games_file(games_path);
    if (report.resumed || beyond)
      progress << log_time_stamp() << " resuming the match in " << config.log_dir << ": " << report.resumed << " of "
               << total << " games already played"
               << (beyond ? ", " + std::to_string(beyond) + " more beyond --boards left out" : "") << std::endl;
  }

  std::atomic<bool> stop{false};
  std::mutex mutex;
  int finished = report.resumed;
  // Each test is decided at its first crossing; the one that stops the
  // match sets `stop`. Called under the lock after every finished game, in
  // the order the games finished, so a resumed match reaches the verdicts
  // the unbroken one would have.
  auto decide_tests = [&](const std::vector<ArenaGame>& done) {
    auto decide = [&](SprtVerdict& verdict, const MeanSprt& test, const std::vector<double>& values, bool stops) {
      const SprtDecision decision = test.decide(values);
      if (decision == SprtDecision::kContinue) return;
      verdict = {decision == SprtDecision::kAcceptH1 ? "H1 accepted" : "H0 accepted", test.llr(values),
                 int(2 * values.size())};
      if (stops) stop = true;
    };
    if (config.sprt && !report.sprt.decided())
      decide(report.sprt, config.sprt->on_scores(), pair_scores(done), !config.stop_on_margin);
    if (config.margin_sprt && !report.margin_sprt.decided())
      decide(report.margin_sprt, config.margin_sprt->on_margins(), pair_margins(done, config.margin_cap, true),
             config.stop_on_margin);
  };
  {
    std::vector<ArenaGame> done;
    for (const int index : resumed_order) {
      done.push_back(games[size_t(index)]);
      decide_tests(done);
    }
  }

  // The stage's items for the progress reporter (the caller begins the
  // stage: `mushroom arena`); the games read back count as done.
  mushroom::progress().set_total(total, report.resumed);
  const std::vector<int> cpus = allowed_cpus();  // --pin stays inside this process's mask
  // Which programs have answered OK at least once (in a game read back, or
  // played now): one that never has and cannot start stops the match.
  std::atomic<bool> started[2] = {false, false};
  for (const ArenaGame& g : games)
    if (g.done && g.forfeiter() < 0) started[0] = started[1] = true;
  const auto started_at = std::chrono::steady_clock::now();  // the time left counts this process's games only
  auto play = [&](int index, int slot) {
    ArenaGame& game = games[size_t(index)];
    if (game.done) return;  // read back from games.csv
    game.board = index / 2;
    game.a_first = index % 2 == 0;
    game.board_seed = board_seed_of(config, game.board);
    const Position start = board_start(config, game.board);
    RefereeConfig rc = config.referee;
    const int first = game.a_first ? 0 : 1;  // index of the program moving first
    rc.cpu[0] = rc.cpu[1] = config.pin ? cpus[size_t(slot) % cpus.size()] : -1;
    rc.seat_time_ms[0] = rc.seat_time_ms[1] = 0;
    if (config.b_time_ms > 0) rc.seat_time_ms[game.a_first ? kSecond : kFirst] = config.b_time_ms;
    std::string stderr_files[2];
    if (!config.log_dir.empty()) {
      for (int side = 0; side < 2; ++side) {
        stderr_files[side] = game_file(config.log_dir, index, side == 0 ? ".first.stderr" : ".second.stderr");
        rc.stderr_path[side] = stderr_files[side];
      }
    }
    game.result = referee_game(config.command[first], config.command[1 - first], start, rc);
    for (const Player seat : {kFirst, kSecond})
      if (game.result.answered_ok[seat]) started[seat == kFirst ? first : 1 - first] = true;
    if (const int side = game.forfeiter(); game.result.start_failed && side >= 0 && !started[side]) {
      // Not recorded: the match is not played, so a resume plays this game.
      stop = true;
      for (const auto& f : stderr_files) remove_if_empty(f);
      throw ProgramStartError("program " + std::string(side == 0 ? "A" : "B") + " (" + config.label[side] + ": " +
                              config.command[side] + ") could not start: " + game.result.log.abort_reason +
                              ". The match stops; fix the command and run it again");
    }
    if (!config.log_dir.empty()) {
      write_file_atomic(game_file(config.log_dir, index, ".log"), format_game_log(game.result.log));
      for (const auto& f : stderr_files) remove_if_empty(f);
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (!games_path.empty()) append_line_durably(games_path, format_game_record(record_of(config, game, index)));
    game.done = true;  // under the lock: other threads read finished games
    ++finished;
    std::vector<ArenaGame> done;
    for (const ArenaGame& g : games)
      if (g.done) done.push_back(g);
    const int outcome = game.a_outcome();
    const Player a_side = game.a_first ? kFirst : kSecond;
    progress << log_time_stamp() << " [" << finished << "/" << total << "] board " << game.board << ", "
             << config.label[0] << (game.a_first ? " first" : " second") << ": "
             << (outcome > 0 ? config.label[0] + " wins" : outcome < 0 ? config.label[1] + " wins" : std::string("draw"))
             << ", cells " << config.label[0] << " " << game.result.score(a_side) << " - " << config.label[1] << " "
             << game.result.score(Player(1 - a_side));
    if (game.forfeiter() >= 0)
      progress << " (" << config.label[game.forfeiter()] << " forfeits: " << game.result.log.abort_reason << ")";
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count();
    const std::string summary = match_summary(config, done);
    progress << "   " << summary << "   " << elapsed_and_left(elapsed, finished - report.resumed, total - finished)
             << std::endl;
    mushroom::progress().advance_to(finished, summary);
    decide_tests(done);  // complete pairs only
  };
  run_jobs(total, config.parallel, play, [&] { return stop.load(); });

  for (const ArenaGame& g : games)
    if (g.done) report.games.push_back(g);
  auto undecided = [&](SprtVerdict& verdict, const MeanSprt& test, const std::vector<double>& values) {
    if (!verdict.result.empty()) return;
    verdict = {"undecided", test.llr(values), int(2 * values.size())};
  };
  if (config.sprt) undecided(report.sprt, config.sprt->on_scores(), pair_scores(report.games));
  if (config.margin_sprt)
    undecided(report.margin_sprt, config.margin_sprt->on_margins(),
              pair_margins(report.games, config.margin_cap, true));
  // The report in both forms: report.txt for people, report.json for
  // programs (docs/reports.md), each written whole or not at all.
  if (!config.log_dir.empty()) {
    write_file_atomic((std::filesystem::path(config.log_dir) / "report.txt").string(), format_report(config, report));
    write_report_json((std::filesystem::path(config.log_dir) / "report.json").string(), config, report);
  }
  if (!config.json_path.empty()) write_report_json(config.json_path, config, report);
  return report;
}

}  // namespace mushroom
