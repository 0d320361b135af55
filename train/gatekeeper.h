// The gatekeeper stage: gates a generation's candidate against the best
// model so far and evaluates it, through its game's judge
// (train/learning_game.h). It decides the promotion; the run loop records it
// in metrics/gen-NNNN.json.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "train/actor.h"
#include "train/learning_game.h"

namespace mushroom::train {

struct GateReport {
  bool promoted = true;  // with gating off every candidate is promoted
  MatchResult gate;      // empty when gating is off
  MatchResult eval;      // empty when not evaluated this generation
  std::optional<double> eval_score;
  std::optional<view::GradeRecord> grade;  // games graded by an exact solver
};

class Gatekeeper {
 public:
  // threads: for matches that can use them.
  Gatekeeper(const RunConfig& config, int threads, StageLog log);

  // best: the best model so far, "" before there is one.
  GateReport judge(int generation, const std::string& candidate, const std::string& best);

 private:
  const RunConfig& config_;
  StageLog log_;
  std::unique_ptr<GameJudge> judge_;
};

}  // namespace mushroom::train
