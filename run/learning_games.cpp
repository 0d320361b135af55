// The run loop's part of every game the learning pipeline runs, for the
// games of train/learnable_games.h (one list for both layers).
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "blockgame/blockgame_game.h"
#include "nn/model_file.h"
#include "run/blockgame_grade.h"
#include "run/game_match.h"
#include "run/learning_game.h"
#include "selfplay/game_selfplay.h"
#include "tictactoe/tictactoe.h"
#include "train/learnable_games.h"
#include "train/training_data.h"

namespace mushroom::run {

namespace {

// The mushroom game: paired-board matches, evaluated against greedy.
class MushroomJudge : public GameJudge {
 public:
  MushroomJudge(const RunConfig& config, int threads)
      : config_(config), threads_(threads), gate_boards_(gate_file_boards(config.gate)) {}

  MatchResult gate(int g, const std::string& candidate, const std::string& best) override {
    const AgentMaker opponent = best.empty()
                                    ? builtin_agent_maker("mcts", {{"sims", std::to_string(config_.gate.sims)}})
                                    : nn_agent_maker(best, config_.gate.sims);
    const uint64_t seed = config_.seed() * 1000 + uint64_t(g);
    return play_paired_match(nn_agent_maker(candidate, config_.gate.sims), opponent,
                             match_boards(config_.gate.boards, seed, gate_boards_, int64_t(g) * config_.gate.boards),
                             seed, threads_);
  }
  std::string bootstrap_opponent() const override { return "mcts (no net)"; }
  Evaluation evaluate(int g, const std::string& candidate) override {
    Evaluation e;
    e.result = play_paired_match(nn_agent_maker(candidate, config_.eval.sims), builtin_agent_maker("greedy"),
                                 config_.eval.boards, config_.seed() * 7777 + uint64_t(g), threads_);
    char line[160];
    std::snprintf(line, sizeof line, "eval: candidate scores %.3f against greedy (mean margin %+.1f)",
                  e.result.score(), e.result.mean_margin);
    e.log_line = line;
    return e;
  }

 private:
  const RunConfig& config_;
  int threads_;
  const std::vector<Position> gate_boards_;  // gate.boards_file's boards (none: seeded boards)
};

// BLOCKGAME: matches between nets, and grading against the exact solver on
// held-out positions (made once, on the first evaluation).
class BlockgameJudge : public GameJudge {
 public:
  explicit BlockgameJudge(const RunConfig& config) : config_(config) {}

  MatchResult gate(int g, const std::string& candidate, const std::string& best) override {
    return play_blockgame_match(candidate, best, config_.gate.boards, config_.seed() * 1000 + uint64_t(g),
                                config_.gate.sims, config_.selfplay.device);
  }
  std::string bootstrap_opponent() const override { return "uniform priors"; }
  Evaluation evaluate(int, const std::string& candidate) override {
    if (!grading_) grading_ = std::make_unique<Grading>(config_.eval.positions);
    const GradeReport grade = grade_blockgame(nn::load_model(candidate), grading_->positions, config_.eval.sims,
                                              grading_->solver, config_.selfplay.device);
    Evaluation e;
    // The match's place holds the MCTS grading: won positions solved.
    e.result.games = grade.won;
    e.result.wins = int(std::lround(grade.mcts_accuracy * grade.won));
    e.result.losses = grade.won - e.result.wins;
    e.grade = view::GradeRecord{grade.policy_accuracy, grade.mcts_accuracy, grade.value_accuracy,
                                grade.random_accuracy, grade.positions};
    char line[256];
    std::snprintf(line, sizeof line,
                  "eval: winning-move accuracy on %d held-out positions: policy %.4f, mcts@%d %.4f; value %.4f "
                  "(random policy %.4f)",
                  grade.positions, grade.policy_accuracy, config_.eval.sims, grade.mcts_accuracy, grade.value_accuracy,
                  grade.random_accuracy);
    e.log_line = line;
    return e;
  }

 private:
  // The exact solver's table is large: made only when a run first grades.
  struct Grading {
    explicit Grading(int count) : positions(blockgame_grading_positions(count, kBlockgameGradingSeed, solver)) {}
    blockgame::Solver solver;
    std::vector<GradePosition> positions;
  };
  const RunConfig& config_;
  std::unique_ptr<Grading> grading_;
};

// Any learnable game judged by matches: gated against the best model so far
// (or the search on uniform priors), evaluated against that uniform search.
template <typename G>
class MatchJudge : public GameJudge {
 public:
  MatchJudge(const RunConfig& config, nn::GameKind game) : config_(config), game_(game) {}

  MatchResult gate(int g, const std::string& candidate, const std::string& best) override {
    return play_game_match<G>(candidate, best, game_, config_.gate.boards, config_.seed() * 1000 + uint64_t(g),
                              config_.gate.sims, config_.selfplay.device);
  }
  std::string bootstrap_opponent() const override { return "uniform priors"; }
  Evaluation evaluate(int g, const std::string& candidate) override {
    Evaluation e;
    e.result = play_game_match<G>(candidate, "", game_, config_.eval.boards, config_.seed() * 7777 + uint64_t(g),
                                  config_.eval.sims, config_.selfplay.device);
    char line[160];
    std::snprintf(line, sizeof line, "eval: candidate scores %.3f against the search on uniform priors (%d-%d-%d)",
                  e.result.score(), e.result.wins, e.result.draws, e.result.losses);
    e.log_line = line;
    return e;
  }

 private:
  const RunConfig& config_;
  nn::GameKind game_;
};

// The entry of a learnable game (search/game.h): the generic self-play and
// shards, with the game's own judge. Checks that the net's
// layout for the game (nn/model.cpp) agrees with the adapter.
template <typename G>
LearningGame learnable_game(nn::GameKind kind, bool draws,
                            std::function<std::unique_ptr<GameJudge>(const RunConfig&, int)> make_judge) {
  const nn::GameShape shape = nn::game_shape(kind);
  if (shape.head != nn::PolicyHead::kCellSlots || shape.rows != G::kBoardRows || shape.cols != G::kBoardCols ||
      shape.slots_per_cell != G::kSlotsPerCell || shape.planes != G::feature_planes(G::kFeatureVersion) ||
      nn::newest_feature_version(kind) != G::kFeatureVersion)
    throw std::logic_error("nn/model.cpp's net layout for " + nn::game_name(kind) + " disagrees with its adapter");
  const std::string name = nn::game_name(kind);
  const selfplay::SampleSchema* schema = &selfplay::learnable_schema<G>(name, draws);
  if (&selfplay::sample_schema(name) != schema)
    throw std::logic_error("selfplay/sample.cpp registers another schema for " + name);
  return {kind, name, schema, [](const RunConfig&) { return std::string("uniform priors"); },
          [](const RunConfig&) { return std::string("uniform"); },
          [kind, schema](const selfplay::SelfplayJob& job) { return selfplay::run_game_selfplay<G>(job, kind, *schema); },
          std::move(make_judge)};
}

// Each game's entry: the run loop's part of every game that
// train/learnable_games.h names.
LearningGame learning_game_of(train::LearnableGame<MushroomGame> game) {
  return {game.kind, nn::game_name(game.kind), &selfplay::mushroom_schema(),
          [](const RunConfig& c) { return "the " + c.selfplay.bootstrap + " evaluator"; },
          [](const RunConfig& c) { return c.selfplay.bootstrap; }, selfplay::run_selfplay,
          [](const RunConfig& c, int threads) -> std::unique_ptr<GameJudge> {
            return std::make_unique<MushroomJudge>(c, threads);
          }};
}

LearningGame learning_game_of(train::LearnableGame<blockgame::BlockGame> game) {
  return learnable_game<blockgame::BlockGame>(game.kind, /*draws=*/false,
                                              [](const RunConfig& c, int) -> std::unique_ptr<GameJudge> {
                                                return std::make_unique<BlockgameJudge>(c);
                                              });
}

LearningGame learning_game_of(train::LearnableGame<tictactoe::TicTacToe> game) {
  return learnable_game<tictactoe::TicTacToe>(game.kind, /*draws=*/true,
                                              [](const RunConfig& c, int) -> std::unique_ptr<GameJudge> {
                                                return std::make_unique<MatchJudge<tictactoe::TicTacToe>>(
                                                    c, nn::GameKind::kTictactoe);
                                              });
}

const std::vector<LearningGame>& games() {
  static const std::vector<LearningGame> all = [] {
    std::vector<LearningGame> out;
    train::for_each_learnable_game([&](auto game) { out.push_back(learning_game_of(game)); });
    return out;
  }();
  return all;
}

}  // namespace

const LearningGame& learning_game(nn::GameKind kind) {
  for (const LearningGame& g : games())
    if (g.kind == kind) return g;
  throw std::invalid_argument("no learning game registered for " + nn::game_name(kind));
}

}  // namespace mushroom::run
