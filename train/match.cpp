#include "train/match.h"

#include <mutex>

#include "agents/local_match.h"
#include "mushroom/board_gen.h"
#include "util/rng.h"
#include "util/work_pool.h"

namespace mushroom::train {

MatchResult play_paired_match(const AgentMaker& a, const AgentMaker& b, int boards, uint64_t seed, int threads) {
  MatchResult result;
  std::mutex mu;
  run_jobs(2 * boards, threads, [&](int k, int) {
    const int board = k / 2;
    const bool a_first = k % 2 == 0;
    uint64_t x = seed + uint64_t(board);
    const Position start = random_board(Rng::splitmix64(x));
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

}  // namespace mushroom::train
