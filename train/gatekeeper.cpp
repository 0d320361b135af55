#include "train/gatekeeper.h"

#include <cmath>
#include <cstdio>

#include "nn/model_file.h"
#include "train/blockgame_grade.h"

namespace mushroom::train {

struct Gatekeeper::Grading {
  explicit Grading(int count) : positions(blockgame_grading_positions(count, kBlockgameGradingSeed, solver)) {}
  blockgame::Solver solver;
  std::vector<GradePosition> positions;
};

Gatekeeper::Gatekeeper(const RunConfig& config, int threads, StageLog log)
    : config_(config), threads_(threads), log_(std::move(log)) {}

Gatekeeper::~Gatekeeper() = default;

GateReport Gatekeeper::judge(int g, const std::string& candidate, const std::string& best) {
  const bool blockgame = config_.game() == nn::GameKind::kBlockgame;
  GateReport report;
  if (config_.gate.enabled && blockgame) {
    report.gate = play_blockgame_match(candidate, best, config_.gate.boards, config_.seed() * 1000 + uint64_t(g),
                                       config_.gate.sims, config_.selfplay.device);
  } else if (config_.gate.enabled) {
    const AgentMaker opponent = best.empty()
                                    ? builtin_agent_maker("mcts", {{"sims", std::to_string(config_.gate.sims)}})
                                    : nn_agent_maker(best, config_.gate.sims);
    report.gate = play_paired_match(nn_agent_maker(candidate, config_.gate.sims), opponent, config_.gate.boards,
                                    config_.seed() * 1000 + uint64_t(g), threads_);
  }
  if (config_.gate.enabled) {
    report.promoted = report.gate.score() > config_.gate.promote_score;
    char line[200];
    std::snprintf(line, sizeof line, "gate: candidate scores %.3f (+%d =%d -%d) against %s: %s", report.gate.score(),
                  report.gate.wins, report.gate.draws, report.gate.losses,
                  best.empty() ? "mcts (no net)" : best.c_str(), report.promoted ? "promoted" : "kept the previous best");
    log_(line);
  }
  if (config_.eval.every <= 0 || g % config_.eval.every != 0) return report;
  if (blockgame) {
    if (!grading_) grading_ = std::make_unique<Grading>(config_.eval.positions);
    const GradeReport grade = grade_blockgame(nn::load_model(candidate), grading_->positions, config_.eval.sims,
                                              grading_->solver, config_.selfplay.device);
    // The eval match's place holds the MCTS grading: won positions solved.
    report.eval.games = grade.won;
    report.eval.wins = int(std::lround(grade.mcts_accuracy * grade.won));
    report.eval.losses = grade.won - report.eval.wins;
    report.grade = view::GradeRecord{grade.policy_accuracy, grade.mcts_accuracy, grade.value_accuracy,
                                     grade.random_accuracy, grade.positions};
    char line[256];
    std::snprintf(line, sizeof line,
                  "eval: winning-move accuracy on %d held-out positions: policy %.4f, mcts@%d %.4f; value %.4f "
                  "(random policy %.4f)",
                  grade.positions, grade.policy_accuracy, config_.eval.sims, grade.mcts_accuracy, grade.value_accuracy,
                  grade.random_accuracy);
    log_(line);
  } else {
    report.eval = play_paired_match(nn_agent_maker(candidate, config_.eval.sims), builtin_agent_maker("greedy"),
                                    config_.eval.boards, config_.seed() * 7777 + uint64_t(g), threads_);
    char line[160];
    std::snprintf(line, sizeof line, "eval: candidate scores %.3f against greedy (mean margin %+.1f)",
                  report.eval.score(), report.eval.mean_margin);
    log_(line);
  }
  report.eval_score = report.eval.score();
  return report;
}

}  // namespace mushroom::train
