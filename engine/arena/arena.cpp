#include "arena/arena.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "util/rng.h"
#include "util/text.h"

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

// The first words of a forfeit reason, without move or status details.
std::string reason_category(const std::string& reason) {
  const size_t cut = reason.find_first_of(":(0123456789-'");
  return std::string(trim(reason.substr(0, cut)));
}

}  // namespace

ArenaReport run_arena(const ArenaConfig& config, std::ostream& progress) {
  if (config.boards < 1) throw std::invalid_argument("--boards must be at least 1");
  if (config.parallel < 1) throw std::invalid_argument("--parallel must be at least 1");
  if (!config.log_dir.empty()) std::filesystem::create_directories(config.log_dir);

  const int total = 2 * config.boards;
  std::vector<ArenaGame> games(static_cast<size_t>(total));
  std::atomic<int> next_game{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  ArenaReport report;
  int finished = 0;

  const int cores = std::max(1u, std::thread::hardware_concurrency());
  auto worker = [&](int slot) {
    while (!stop.load()) {
      const int index = next_game.fetch_add(1);
      if (index >= total) return;
      ArenaGame& game = games[size_t(index)];
      game.board = index / 2;
      game.a_first = index % 2 == 0;
      game.board_seed = arena_board_seed(config.seed, game.board);
      const Position start = random_board(game.board_seed, config.board_mode);
      RefereeConfig rc = config.referee;
      const int first = game.a_first ? 0 : 1;  // index of the program moving first
      rc.cpu[0] = rc.cpu[1] = config.pin ? slot % cores : -1;
      std::string stderr_files[2];
      if (!config.log_dir.empty()) {
        for (int side = 0; side < 2; ++side) {
          stderr_files[side] = game_file(config.log_dir, index, side == 0 ? ".first.stderr" : ".second.stderr");
          rc.stderr_path[side] = stderr_files[side];
        }
      }
      game.result = referee_game(config.command[first], config.command[1 - first], start, rc);
      if (!config.log_dir.empty()) {
        write_file_atomic(game_file(config.log_dir, index, ".log"), format_game_log(game.result.log));
        for (const auto& f : stderr_files) remove_if_empty(f);
      }
      std::lock_guard<std::mutex> lock(mutex);
      game.done = true;  // under the lock: other threads read finished games
      ++finished;
      std::vector<ArenaGame> done;
      for (const ArenaGame& g : games)
        if (g.done) done.push_back(g);
      const auto pairs = pair_scores(done);
      double points = 0;
      for (const ArenaGame& g : done) points += 0.5 * (1 + g.a_outcome());
      const int outcome = game.a_outcome();
      const Player a_side = game.a_first ? kFirst : kSecond;
      progress << "[" << finished << "/" << total << "] board " << game.board << ", " << config.label[0]
               << (game.a_first ? " first" : " second") << ": "
               << (outcome > 0 ? config.label[0] + " wins" : outcome < 0 ? config.label[1] + " wins" : std::string("draw"))
               << ", cells " << config.label[0] << " " << game.result.score(a_side) << " - " << config.label[1] << " "
               << game.result.score(Player(1 - a_side));
      if (game.forfeiter() >= 0)
        progress << " (" << config.label[game.forfeiter()] << " forfeits: " << game.result.log.abort_reason << ")";
      progress << "   " << config.label[0] << " " << points << "/" << done.size() << std::endl;
      if (config.sprt && index % 2 == 1) {
        const auto decision = config.sprt->decide(pairs);
        if (decision != Sprt::Decision::kContinue && !stop.exchange(true)) {
          report.llr = config.sprt->llr(pairs);
          report.sprt_result = decision == Sprt::Decision::kAcceptH1 ? "H1 accepted" : "H0 accepted";
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(config.parallel, total); ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();

  for (const ArenaGame& g : games)
    if (g.done) report.games.push_back(g);
  if (config.sprt && report.sprt_result.empty()) {
    report.llr = config.sprt->llr(pair_scores(report.games));
    report.sprt_result = "undecided after all games";
  }
  if (!config.log_dir.empty()) {
    std::string csv = "game,board,board_seed,a_side,first_score,second_score,a_outcome,a_margin,forfeit_by,forfeit_reason\n";
    for (size_t i = 0; i < games.size(); ++i) {
      const ArenaGame& g = games[i];
      if (!g.done) continue;
      std::string reason = g.result.log.abort_reason;
      for (char& ch : reason)
        if (ch == ',' || ch == '"') ch = ' ';
      csv += std::to_string(i) + "," + std::to_string(g.board) + "," + std::to_string(g.board_seed) + "," +
             (g.a_first ? "first" : "second") + "," + std::to_string(g.result.log.score_first) + "," +
             std::to_string(g.result.log.score_second) + "," + std::to_string(g.a_outcome()) + "," +
             std::to_string(g.a_margin()) + "," + (g.forfeiter() < 0 ? "" : config.label[g.forfeiter()]) + "," +
             reason + "\n";
    }
    write_file_atomic((std::filesystem::path(config.log_dir) / "games.csv").string(), csv);
    write_file_atomic((std::filesystem::path(config.log_dir) / "report.txt").string(), format_report(config, report));
  }
  return report;
}

std::string format_report(const ArenaConfig& config, const ArenaReport& report) {
  struct Tally {
    int w = 0, d = 0, l = 0;
    void add(int outcome) { (outcome > 0 ? w : outcome < 0 ? l : d)++; }
    std::string str() const {
      return std::to_string(w) + " W, " + std::to_string(d) + " D, " + std::to_string(l) + " L";
    }
  } as_first, as_second, all;
  double margin_sum = 0;
  int margin_games = 0;
  std::map<std::string, int> forfeits[2];
  std::map<std::string, std::string> forfeit_example[2];
  for (const ArenaGame& g : report.games) {
    (g.a_first ? as_first : as_second).add(g.a_outcome());
    all.add(g.a_outcome());
    if (g.forfeiter() < 0) {
      margin_sum += g.a_margin();
      ++margin_games;
    } else {
      const std::string category = reason_category(g.result.log.abort_reason);
      ++forfeits[g.forfeiter()][category];
      forfeit_example[g.forfeiter()][category] = g.result.log.abort_reason;
    }
  }
  const auto pairs = pair_scores(report.games);
  const EloEstimate est = estimate_elo(pairs, all.w, all.l);
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "A: " << config.label[0] << " = " << config.command[0] << "\n";
  out << "B: " << config.label[1] << " = " << config.command[1] << "\n";
  out << "games: " << report.games.size() << " (" << pairs.size() << " complete pairs), time bank "
      << config.referee.time_ms << " ms (" << clock_name(config.referee.clock) << " clock), board seed " << config.seed << "\n";
  out << "A moving first:  " << as_first.str() << "\n";
  out << "A moving second: " << as_second.str() << "\n";
  out << "A total:         " << all.str() << "   score " << (all.w + 0.5 * all.d) << "/" << report.games.size()
      << " = " << 100.0 * (report.games.empty() ? 0.5 : (all.w + 0.5 * all.d) / report.games.size()) << "%\n";
  out << "mean margin (A cells - B cells): " << (margin_games ? margin_sum / margin_games : 0.0) << " over "
      << margin_games << " finished games\n";
  // The same per board (both games, sides swapped), with its interval: the
  // sharpest measure when the first mover wins nearly every game.
  std::map<int, std::vector<int>> board_margins;
  for (const ArenaGame& g : report.games)
    if (g.forfeiter() < 0) board_margins[g.board].push_back(g.a_margin());
  std::vector<double> paired;
  for (const auto& [board, margins] : board_margins)
    if (margins.size() == 2) paired.push_back(0.5 * (margins[0] + margins[1]));
  const MeanInterval pm = mean_interval(paired);
  out << "paired margin per game: " << pm.mean << "  95% interval [" << pm.low << ", " << pm.high << "] over " << pm.n
      << " boards\n";
  auto elo_text = [](double e) {
    if (std::isinf(e)) return std::string(e > 0 ? "+inf" : "-inf");
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%+.1f", e);
    return std::string(buf);
  };
  out << "Elo (A - B): " << elo_text(est.elo) << "  95% interval [" << elo_text(est.elo_low) << ", "
      << elo_text(est.elo_high) << "] (pentanomial, pairs)   LOS " << 100.0 * est.los << "%\n";
  for (int side = 0; side < 2; ++side) {
    int count = 0;
    for (const auto& [category, n] : forfeits[side]) count += n;
    out << "forfeits by " << config.label[side] << ": " << count << "\n";
    for (const auto& [category, n] : forfeits[side])
      out << "  " << n << " x " << category << "  (e.g. " << forfeit_example[side][category] << ")\n";
  }
  if (config.sprt) {
    out.precision(2);
    out << "SPRT elo0=" << config.sprt->elo0 << " elo1=" << config.sprt->elo1 << " alpha=" << config.sprt->alpha
        << " beta=" << config.sprt->beta << ": " << report.sprt_result << " (LLR " << report.llr << ", bounds ["
        << config.sprt->lower_bound() << ", " << config.sprt->upper_bound() << "])\n";
  }
  return out.str();
}

}  // namespace mushroom
