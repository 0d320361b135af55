// The gatekeeper stage: gates a generation's candidate against the best
// model so far and evaluates it (against greedy, or for BLOCKGAME by grading
// it against the exact solver). It decides the promotion; the run loop
// records it in metrics/gen-NNNN.json.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "train/actor.h"
#include "train/match.h"
#include "view/run_records.h"

namespace mushroom::train {

struct GateReport {
  bool promoted = true;  // with gating off every candidate is promoted
  MatchResult gate;      // empty when gating is off
  MatchResult eval;      // empty when not evaluated this generation
  std::optional<double> eval_score;
  std::optional<view::GradeRecord> grade;  // BLOCKGAME evaluations
};

class Gatekeeper {
 public:
  // threads: for the mushroom game's gating and evaluation matches.
  Gatekeeper(const RunConfig& config, int threads, StageLog log);
  ~Gatekeeper();

  // best: the best model so far, "" before there is one (then the candidate
  // meets the no-net mcts agent at the same simulations).
  GateReport judge(int generation, const std::string& candidate, const std::string& best);

 private:
  struct Grading;  // BLOCKGAME's held-out positions, made once, on first use
  const RunConfig& config_;
  int threads_;
  StageLog log_;
  std::unique_ptr<Grading> grading_;
};

}  // namespace mushroom::train
