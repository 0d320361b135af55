#include "arena/balanced_boards.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "agents/agent.h"
#include "agents/local_match.h"
#include "arena/arena.h"
#include "arena/games_file.h"
#include "mushroom/board_gen.h"
#include "util/log_stamp.h"
#include "util/csv.h"
#include "util/parse_error.h"
#include "util/text.h"
#include "util/work_pool.h"

namespace mushroom {
namespace {

constexpr const char* kTrialsHeader = "index,board_seed,first_cells,second_cells,moves";

std::vector<BoardTrial> read_trials(const std::string& path, const std::string& settings) {
  std::vector<BoardTrial> trials;
  const std::vector<std::string> lines = split_lines(read_file(path));
  if (lines.empty()) return trials;
  if (lines[0] != settings)
    throw std::invalid_argument(path + ": its trials were played as '" + lines[0] + "', not '" + settings +
                                "': use the same --agent and --seed, or another --trials file");
  if (lines.size() < 2 || lines[1] != kTrialsHeader)
    throw ParseError(path + ":2:1: expected the header '" + std::string(kTrialsHeader) + "'");
  for (size_t i = 2; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    const std::string where = path + ":" + std::to_string(i + 1) + ":1: ";
    const std::vector<std::string> f = split_csv_fields(trim(lines[i]), path + ":" + std::to_string(i + 1));
    BoardTrial t;
    bool ok = f.size() == 5 && parse_int(f[0], t.index) && parse_int(f[2], t.first_cells) &&
              parse_int(f[3], t.second_cells) && parse_int(f[4], t.moves) && !f[1].empty() &&
              f[1].find_first_not_of("0123456789") == std::string_view::npos && f[1].size() <= 20;
    if (ok) {
      try {
        t.board_seed = std::stoull(std::string(f[1]));
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok) throw ParseError(where + "expected 5 numbers: " + kTrialsHeader + ", got '" + lines[i] + "'");
    if (t.index != int(trials.size()))
      throw ParseError(where + "candidate " + std::to_string(t.index) + " where " + std::to_string(trials.size()) +
                       " was due (the file is written in index order)");
    if (t.first_cells < 0 || t.second_cells < 0 || t.first_cells + t.second_cells > kCells)
      throw ParseError(where + "cells " + std::to_string(t.first_cells) + " and " + std::to_string(t.second_cells) +
                       " do not fit a 170-cell board");
    trials.push_back(t);
  }
  return trials;
}

std::string format_trial(const BoardTrial& t) {
  return std::to_string(t.index) + "," + std::to_string(t.board_seed) + "," + std::to_string(t.first_cells) + "," +
         std::to_string(t.second_cells) + "," + std::to_string(t.moves);
}

}  // namespace

bool is_balanced(const BoardTrial& trial, int max_margin) { return trial.first_margin() <= max_margin; }

BoardTrial play_board_trial(const AgentSpec& agent, int time_ms, uint64_t seed, int index) {
  BoardTrial t;
  t.index = index;
  t.board_seed = arena_board_seed(seed, index);
  AgentOptions options;
  options.values = agent.options;
  options.seed = t.board_seed;
  auto first = make_agent(agent.name, options);
  auto second = make_agent(agent.name, options);
  const LocalGameResult r = play_local_game(*first, *second, random_board(t.board_seed, BoardMode::kUniform), time_ms);
  if (!r.forfeit.empty())
    throw std::runtime_error("candidate " + std::to_string(index) + ": the agent forfeited its self-play game: " +
                             r.forfeit);
  t.first_cells = r.final.score(kFirst);
  t.second_cells = r.final.score(kSecond);
  t.moves = int(r.moves.size());
  return t;
}

std::string balanced_boards_settings_line(const BalancedBoardsConfig& config) {
  return "# mushroom balanced-boards trials: agent=" + format_agent_spec(config.agent) +
         " time_ms=" + std::to_string(config.time_ms) + " seed=" + std::to_string(config.seed);
}

BalancedBoards find_balanced_boards(const BalancedBoardsConfig& config, std::ostream& progress) {
  if (config.count < 1) throw std::invalid_argument("--count must be at least 1");
  if (config.parallel < 1) throw std::invalid_argument("--parallel must be at least 1");
  if (config.time_ms < 1) throw std::invalid_argument("--time-ms must be positive");
  if (config.max_margin < -kCells || config.max_margin > kCells)
    throw std::invalid_argument("--max-margin must be within -170..170 cells");
  {  // an unknown agent or option fails here, before any game
    AgentOptions options;
    options.values = config.agent.options;
    make_agent(config.agent.name, options);
  }
  const std::string settings = balanced_boards_settings_line(config);
  BalancedBoards out;
  if (!config.trials_path.empty() && std::filesystem::exists(config.trials_path)) {
    out.trials = read_trials(config.trials_path, settings);
    out.resumed = int(out.trials.size());
  }
  if (!config.trials_path.empty() && out.trials.empty()) {
    write_file_atomic(config.trials_path, settings + "\n" + kTrialsHeader + "\n");
  }
  auto kept = [&] {
    return int(std::count_if(out.trials.begin(), out.trials.end(),
                             [&](const BoardTrial& t) { return is_balanced(t, config.max_margin); }));
  };
  if (out.resumed)
    progress << log_time_stamp() << " balanced-boards: " << out.resumed << " candidates already played, " << kept()
             << " balanced" << std::endl;
  const auto started = std::chrono::steady_clock::now();
  int played = 0;
  while (kept() < config.count) {
    const int first = int(out.trials.size());
    if (first >= config.max_candidates)
      throw std::invalid_argument("only " + std::to_string(kept()) + " of " + std::to_string(config.count) +
                                  " boards were balanced in " + std::to_string(first) +
                                  " candidates (--max-candidates): raise --max-margin or --max-candidates");
    const int batch = std::min(config.max_candidates - first, 4 * config.parallel);
    std::vector<BoardTrial> results(static_cast<size_t>(batch));
    run_jobs(batch, config.parallel,
             [&](int k, int) { results[size_t(k)] = play_board_trial(config.agent, config.time_ms, config.seed, first + k); });
    for (const BoardTrial& t : results) {
      if (!config.trials_path.empty()) append_line_durably(config.trials_path, format_trial(t));
      out.trials.push_back(t);
    }
    played += batch;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const int now = kept();
    const double rate = double(now) / double(out.trials.size());
    const double left_s = now > 0 ? elapsed / played * (double(config.count - now) / rate) : 0;
    progress << log_time_stamp() << " balanced-boards: " << std::min(now, config.count) << "/" << config.count
             << " balanced of "
             << out.trials.size() << " candidates (" << int(100 * rate + 0.5) << "%), " << int(elapsed) << " s, left about "
             << int(std::max(0.0, left_s)) << " s" << std::endl;
  }
  for (const BoardTrial& t : out.trials) {
    if (int(out.boards.size()) == config.count) break;
    if (is_balanced(t, config.max_margin)) out.boards.push_back(random_board(t.board_seed, BoardMode::kUniform));
  }
  return out;
}

}  // namespace mushroom
