#include "run/match.h"

#include <mutex>

#include "agents/local_match.h"
#include "arena/boards_file.h"
#include "mushroom/board_gen.h"
#include "util/progress.h"
#include "util/rng.h"
#include "util/work_pool.h"

namespace mushroom::run {

std::vector<Position> match_boards(int boards, uint64_t seed, const std::vector<Position>& file_boards, int64_t offset) {
  std::vector<Position> starts;
  for (int board = 0; board < boards; ++board) {
    if (file_boards.empty()) {
      uint64_t x = seed + uint64_t(board);
      starts.push_back(random_board(Rng::splitmix64(x)));
    } else {
      const int64_t n = int64_t(file_boards.size());
      starts.push_back(file_boards[size_t(((offset + board) % n + n) % n)]);
    }
  }
  return starts;
}

std::vector<Position> gate_file_boards(const GateConfig& gate) {
  return gate.boards_file.empty() ? std::vector<Position>{} : read_boards_file(gate.boards_file).boards;
}

MatchResult play_paired_match(const AgentMaker& a, const AgentMaker& b, int boards, uint64_t seed, int threads) {
  return play_paired_match(a, b, match_boards(boards, seed, {}, 0), seed, threads);
}

MatchResult play_paired_match(const AgentMaker& a, const AgentMaker& b, const std::vector<Position>& starts,
                              uint64_t seed, int threads) {
  MatchResult result;
  std::mutex mu;
  progress().expect(2 * int64_t(starts.size()));  // the gate's games (util/progress.h)
  run_jobs(2 * int(starts.size()), threads, [&](int k, int) {
    const bool a_first = k % 2 == 0;
    const Position& start = starts[size_t(k / 2)];
    auto agent_a = a(seed + uint64_t(k));
    auto agent_b = b(seed + uint64_t(k) + 7919);
    const LocalGameResult r = a_first ? play_local_game(*agent_a, *agent_b, start) : play_local_game(*agent_b, *agent_a, start);
    const int first_outcome = r.outcome();
    const int a_outcome = a_first ? first_outcome : -first_outcome;
    const int first_margin = r.final.score(kFirst) - r.final.score(kSecond);
    std::lock_guard<std::mutex> lock(mu);
    ++result.games;
    result.wins += a_outcome > 0;
    result.draws += a_outcome == 0;
    result.losses += a_outcome < 0;
    result.mean_margin += ((a_first ? first_margin : -first_margin) - result.mean_margin) / result.games;
    progress().add();
  });
  return result;
}

AgentMaker nn_agent_maker(const std::string& model_path, int sims) {
  return builtin_agent_maker("nn", {{"model", model_path}, {"sims", std::to_string(sims)}});
}

AgentMaker builtin_agent_maker(const std::string& name, std::map<std::string, std::string> options) {
  return [name, options](uint64_t seed) {
    AgentOptions o;
    o.seed = seed;
    o.values = options;
    return make_agent(name, o);
  };
}

}  // namespace mushroom::run
