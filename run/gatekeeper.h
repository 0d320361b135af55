// The gatekeeper stage: gates a generation's candidate against the best
// model so far and evaluates it, through its game's judge
// (run/learning_game.h). It decides the promotion; the run loop records it
// in metrics/gen-NNNN.json.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "run/actor.h"
#include "run/learning_game.h"

namespace mushroom::run {

struct GateReport {
  bool promoted = true;  // with gating off every candidate is promoted
  MatchResult gate;      // empty when gating is off
  MatchResult eval;      // empty when not evaluated this generation
  std::optional<double> eval_score;
  std::optional<view::GradeRecord> grade;  // games graded by an exact solver
  std::optional<view::FitRecord> fit;      // a learned evaluation's fit to held-out results
};

class Gatekeeper {
 public:
  // judge: the pipeline's (run/pipeline.h).
  Gatekeeper(const RunConfig& config, std::unique_ptr<GameJudge> judge, StageLog log);

  // best: the best model so far, "" before there is one.
  GateReport judge(int generation, const std::string& candidate, const std::string& best);

 private:
  const RunConfig& config_;
  StageLog log_;
  std::unique_ptr<GameJudge> judge_;
};

}  // namespace mushroom::run
