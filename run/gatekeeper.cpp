#include "run/gatekeeper.h"

#include <cstdio>

namespace mushroom::run {

Gatekeeper::Gatekeeper(const RunConfig& config, std::unique_ptr<GameJudge> judge, StageLog log)
    : config_(config), log_(std::move(log)), judge_(std::move(judge)) {}

GateReport Gatekeeper::judge(int g, const std::string& candidate, const std::string& best) {
  GateReport report;
  if (config_.gate.enabled) {
    report.gate = judge_->gate(g, candidate, best);
    report.promoted = report.gate.score() > config_.gate.promote_score;
    char line[200];
    std::snprintf(line, sizeof line, "gate: candidate scores %.3f (+%d =%d -%d) against %s: %s", report.gate.score(),
                  report.gate.wins, report.gate.draws, report.gate.losses,
                  best.empty() ? judge_->bootstrap_opponent().c_str() : best.c_str(),
                  report.promoted ? "promoted" : "kept the previous best");
    log_(line);
  }
  if (config_.eval.every <= 0 || g % config_.eval.every != 0) return report;
  const Evaluation evaluation = judge_->evaluate(g, candidate);
  report.eval = evaluation.result;
  report.grade = evaluation.grade;
  report.fit = evaluation.fit;
  report.eval_score = evaluation.result.score();
  log_(evaluation.log_line);
  return report;
}

}  // namespace mushroom::run
