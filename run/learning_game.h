// The games the learning pipeline knows, each registered once: everything
// the run loop's stages need to know about a game, so that the actor, the
// learner, the gatekeeper and the run loop themselves never ask which game
// they run. A game brings its sample schema (selfplay/sample.h), its
// self-play runner and its judge (gating and evaluation);
// run/learning_games.cpp makes them. The games are named once, in
// train/learnable_games.h; their batch encoders, the learners' part, are in
// train/batch_encoders.cpp.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "run/match.h"
#include "run/run_config.h"
#include "selfplay/sample.h"
#include "selfplay/selfplay_runner.h"
#include "train/loss.h"
#include "util/rng.h"
#include "view/run_records.h"

namespace mushroom::run {

// What evaluating a candidate found, for the record and the log.
struct Evaluation {
  MatchResult result;                      // a match, or a grading in a match's terms
  std::optional<view::GradeRecord> grade;  // games graded by an exact solver
  std::optional<view::FitRecord> fit;      // a learned evaluation's fit to held-out results
  std::string log_line;
};

// Gates and evaluates one run's candidates. Made once per run, so that it
// may keep what it prepares (held-out positions, say).
class GameJudge {
 public:
  virtual ~GameJudge() = default;
  // The candidate against the best model so far ("" before there is one).
  virtual MatchResult gate(int generation, const std::string& candidate, const std::string& best) = 0;
  // What the candidate meets when there is no best model yet, for the log.
  virtual std::string bootstrap_opponent() const = 0;
  virtual Evaluation evaluate(int generation, const std::string& candidate) = 0;
};

struct LearningGame {
  nn::GameKind kind;
  std::string name;
  const selfplay::SampleSchema* schema;
  // What self-play uses before there is a model: a name for the log, and a
  // short id for the shards' model_id ("bootstrap-<id>").
  std::function<std::string(const RunConfig&)> bootstrap_name;
  std::function<std::string(const RunConfig&)> bootstrap_id;
  std::function<selfplay::SelfplayProgress(const selfplay::SelfplayJob&)> selfplay;
  std::function<std::unique_ptr<GameJudge>(const RunConfig&, int threads)> make_judge;
};

// The registered game of that kind; throws std::invalid_argument if none is.
const LearningGame& learning_game(nn::GameKind kind);

}  // namespace mushroom::run
