// Self-play of the alpha-beta bot, the learned evaluation's data (issue 28;
// Descent and NNUE-style training: the searcher labels its own positions,
// far cheaper than MCTS self-play). Each game starts on a random board
// after k uniformly random moves (k drawn from 0..random_opening_plies);
// then both sides search every position at the label depth with the
// current evaluation (the hand one before there is a learned one), within
// a node budget when one is set (the deepest iteration finished within it
// counts), with the search label_search names (selfplay/labeller.h labels
// every position, here and in the offline relabelling pass; with
// label_probcut the playing search prunes with the evaluation's
// Multi-ProbCut fit, as the contest bot searches). Every searched position is a sample labelled with the search's
// score; when the game ends each gets its side's final margin and outcome.
// The random opening's positions are not samples. Once few enough
// mushrooms are left (exact_mushrooms), each position is first given to
// the dedicated endgame solver (engine/endgame/): a position it proves
// within exact_nodes is labelled
// with the proven final margin (exact) and the solver's move is played,
// so the rest of the game is perfect play. A fraction of
// the moves after the opening are played uniformly at random (their
// positions still labelled), so that the games do not repeat one line.
// With a teacher (a conv-net model file) each sample also gets the net's
// value. Shards are mushroom-eval shards (selfplay/shard.h), through the
// same workers, shard writer and resume as the conv net's self-play.
#pragma once
#include <memory>
#include <string>

#include "alphabeta/probcut.h"
#include "nn/model.h"
#include "nnue/network.h"
#include "selfplay/labeller.h"
#include "selfplay/selfplay_runner.h"
#include "util/settings.h"

namespace mushroom::selfplay {

struct EvalSelfplayConfig {
  int label_depth = 4;              // alpha-beta depth of every labelled search
  int64_t label_nodes = 0;          // node budget of each labelled search (0: the depth alone bounds it)
  std::string label_search = "plain";  // "plain" or "playing" (selfplay/labeller.h)
  bool label_parity_mean = false;      // the mean of label_depth and label_depth + 1
  bool label_probcut = false;          // the playing search with the evaluation's Multi-ProbCut fit
  int exact_mushrooms = 0;          // solve exactly at or below this many mushrooms left (0: never)
  int64_t exact_nodes = 2'000'000;  // node budget of each exact solve
  int focus_label_depth = 0;        // the label depth at focus_min..focus_max mushrooms left (0: label_depth)
  int focus_min = 95, focus_max = 130;
  double random_move_fraction = 0.1;  // moves after the opening played at random
  std::string teacher;              // conv-net model file for the teacher label ("": none)
  int heldout_games = 40;           // games kept apart to measure the evaluations' fit (eval runs)

  // The settings the labeller takes (selfplay/labeller.h).
  LabelConfig label_config() const {
    return {label_depth,     label_nodes, label_search,      label_parity_mean, label_probcut,
            exact_mushrooms, exact_nodes, focus_label_depth, focus_min,         focus_max};
  }
};
// The [evalplay] settings of a run config.
const SettingsTable<EvalSelfplayConfig>& eval_selfplay_settings();

struct EvalSelfplayJob {
  SelfplayJob job;  // games, workers, seed, openings, shard size, out_dir, progress; job.model unused
  EvalSelfplayConfig eval;
  std::shared_ptr<const nnue::Network> evaluation;  // null: the hand evaluation
  // With eval.label_probcut: the evaluation's fit (alphabeta/probcut.h),
  // made with it; probcut_source names it in messages. Null otherwise.
  std::shared_ptr<const ProbCutFit> probcut;
  std::string probcut_source;
  std::shared_ptr<const nn::Model> teacher;            // loaded from eval.teacher by the caller
};

// Throws std::invalid_argument before any game when the label settings or
// the fit are refused (check_label_config, check_label_fit).
SelfplayProgress run_eval_selfplay(const EvalSelfplayJob& job);

}  // namespace mushroom::selfplay
