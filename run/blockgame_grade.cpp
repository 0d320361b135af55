#include "run/blockgame_grade.h"

#include <cstdio>
#include <memory>

#include "blockgame/blockgame_game.h"
#include "nn/game_net_evaluator.h"
#include "nn/model_file.h"
#include "run/game_match.h"
#include "search/mcts.h"
#include "util/rng.h"

namespace mushroom::run {

using blockgame::BlockGame;

namespace {

bool wins_after(uint32_t filled, uint8_t placement, blockgame::Solver& solver) {
  return !solver.wins(filled | blockgame::placements()[placement]);
}

}  // namespace

MctsConfig blockgame_grading_search() { return game_match_search(); }

std::vector<GradePosition> blockgame_grading_positions(int count, uint64_t seed, blockgame::Solver& solver) {
  Rng rng(seed);
  std::vector<GradePosition> out;
  uint8_t legal[blockgame::kPlacements];
  while (int(out.size()) < count) {
    std::vector<uint32_t> line;  // non-terminal positions after ply >= 1
    uint32_t filled = 0;
    for (int n; (n = blockgame::legal_placements(filled, legal)) > 0;) {
      if (filled != 0) line.push_back(filled);
      filled |= blockgame::placements()[legal[rng.uniform(uint32_t(n))]];
    }
    if (line.empty()) continue;
    GradePosition p;
    const uint32_t cut = rng.uniform(uint32_t(line.size()));
    p.filled = line[cut];
    p.ply = int(cut) + 1;
    p.legal = blockgame::legal_placements(p.filled, legal);
    p.won = solver.wins(p.filled);
    p.winning = p.won ? int(solver.winning_moves(p.filled).size()) : 0;
    out.push_back(p);
  }
  return out;
}

GradeReport grade_random_policy(const std::vector<GradePosition>& positions) {
  GradeReport r;
  r.positions = int(positions.size());
  double sum = 0;
  for (const GradePosition& p : positions) {
    if (p.ply >= int(r.by_ply.size())) r.by_ply.resize(size_t(p.ply) + 1);
    ++r.by_ply[size_t(p.ply)].positions;
    if (!p.won) continue;
    ++r.by_ply[size_t(p.ply)].won;
    ++r.won;
    sum += double(p.winning) / double(p.legal);
  }
  r.random_accuracy = r.won ? sum / r.won : 0;
  return r;
}

GradeReport grade_blockgame(const nn::Model& model, const std::vector<GradePosition>& positions, int sims,
                            blockgame::Solver& solver, const std::string& device, const MctsConfig& search) {
  GradeReport r = grade_random_policy(positions);
  r.sims = sims;
  const auto evaluator_owner = nn::make_game_net_evaluator<BlockGame>(model, nn::GameKind::kBlockgame, device);
  Evaluator<BlockGame>& evaluator = *evaluator_owner;
  uint8_t legal[blockgame::kPlacements];
  constexpr size_t kChunk = 256;  // raw-net queries per batched call
  for (size_t from = 0; from < positions.size(); from += kChunk) {
    const size_t to = std::min(positions.size(), from + kChunk);
    std::vector<blockgame::State> states(to - from);
    std::vector<std::vector<uint8_t>> actions(to - from);
    std::vector<EvalRequest<BlockGame>> requests;
    for (size_t i = from; i < to; ++i) {
      states[i - from].filled = positions[i].filled;
      actions[i - from].assign(legal, legal + blockgame::legal_placements(positions[i].filled, legal));
    }
    for (size_t i = 0; i < states.size(); ++i)
      requests.push_back({&states[i], actions[i].data(), int(actions[i].size())});
    std::vector<EvalResult> results(requests.size());
    evaluator.evaluate(requests, Span<EvalResult>(results.data(), results.size()));
    for (size_t i = 0; i < results.size(); ++i) {
      const GradePosition& p = positions[from + i];
      GradeReport::PlyCounts& at = r.by_ply[size_t(p.ply)];
      at.value_right += (results[i].value > 0) == p.won;
      if (!p.won) continue;
      const auto& priors = results[i].priors;
      const size_t top = size_t(std::max_element(priors.begin(), priors.end()) - priors.begin());
      at.policy_right += wins_after(p.filled, actions[i][top], solver);
    }
  }
  if (sims > 0) {
    for (const GradePosition& p : positions) {
      if (!p.won) continue;
      Mcts<BlockGame> mcts(search);
      mcts.reset(blockgame::State{p.filled, 0, 0});
      mcts.run(evaluator, sims);
      r.by_ply[size_t(p.ply)].mcts_right += wins_after(p.filled, mcts.best_action(), solver);
    }
  }
  // The totals are the by-ply counts summed.
  int policy_right = 0, mcts_right = 0, value_right = 0;
  for (const GradeReport::PlyCounts& c : r.by_ply) {
    policy_right += c.policy_right;
    mcts_right += c.mcts_right;
    value_right += c.value_right;
  }
  r.policy_accuracy = r.won ? double(policy_right) / r.won : 0;
  r.mcts_accuracy = r.won && sims > 0 ? double(mcts_right) / r.won : 0;
  r.value_accuracy = r.positions ? double(value_right) / r.positions : 0;
  return r;
}

std::string format_grade_report(const GradeReport& r) {
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "positions:             %d (%d won, %d lost for the player to move)\n"
                "random policy:         %.4f  (chance that a uniformly random legal move wins, over won positions)\n"
                "raw policy top move:   %.4f  (share of won positions where it wins)\n"
                "mcts@%-4d top move:    %.4f\n"
                "value head sign:       %.4f  (share of all positions labelled right, won/lost)\n",
                r.positions, r.won, r.positions - r.won, r.random_accuracy, r.policy_accuracy, r.sims,
                r.mcts_accuracy, r.value_accuracy);
  std::string out = buf;
  out += "by ply:   ply positions   won  policy    mcts   value\n";
  for (size_t ply = 0; ply < r.by_ply.size(); ++ply) {
    const GradeReport::PlyCounts& c = r.by_ply[ply];
    if (c.positions == 0) continue;
    const auto share = [](int right, int of) { return of ? double(right) / of : 0.0; };
    std::snprintf(buf, sizeof buf, "         %4zu %9d %5d  %6.4f  %6.4f  %6.4f\n", ply, c.positions, c.won,
                  share(c.policy_right, c.won), r.sims > 0 ? share(c.mcts_right, c.won) : 0.0,
                  share(c.value_right, c.positions));
    out += buf;
  }
  return out;
}

MatchResult play_blockgame_match(const std::string& model_a, const std::string& model_b, int boards, uint64_t seed,
                                 int sims, const std::string& device) {
  return play_game_match<BlockGame>(model_a, model_b, nn::GameKind::kBlockgame, boards, seed, sims, device);
}

}  // namespace mushroom::run
