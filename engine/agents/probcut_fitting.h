// Fitting Multi-ProbCut (alphabeta/probcut.h) for one evaluation: the
// playing search plays games against itself at a low depth from seeded
// random boards (the first moves random, so the games vary); a share of
// their positions is searched again by iterative deepening from an empty
// table, and each completed depth's value is kept. For every band of
// mushrooms left and pair (depth, shallow), the deep values are regressed on
// the shallow ones (`mushroom probcut-fit`).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "alphabeta/probcut.h"

namespace mushroom {

struct ProbCutFitJob {
  std::string eval;             // the learned-evaluation file ("": the hand evaluation)
  int games = 200;
  uint64_t seed = 1;
  int threads = 2;
  int play_depth = 3;           // the games' moves: the playing search at this depth
  int random_plies = 8;         // each game's first 0..random_plies moves are random
  double sample_rate = 0.25;    // the share of the games' positions searched
  int max_depth = 9;            // each position searched to this depth...
  uint64_t node_limit = 4'000'000;  // ...unless it passes this many nodes first
  int tt_bits = 20;
  // (depth, shallow) pairs fitted; shallow below depth, of its parity.
  std::vector<std::pair<int, int>> pairs = default_pairs();
  int min_samples = 30;         // a band's pair with fewer samples is not fitted
  // The endgame solver's selective mode: positions with at most this many
  // mushrooms left are also solved exactly (within exact_nodes), and the
  // exact margin is fitted on the value at depth exact_shallow (the fit's
  // `exact` pairs). 0: none.
  int exact_max_left = 0;
  uint64_t exact_nodes = 2'000'000;
  int exact_shallow = 4;

  static std::vector<std::pair<int, int>> default_pairs();
};

// How a caller spells the job's settings in its messages, from the
// member's name (`exact_shallow`): the command's flags (`--exact-shallow`)
// or a config's keys (`probcut.exact_shallow`).
using FitSettingName = std::function<std::string(const std::string& member)>;
// A job member's setting name, as `probcut-fit`'s flags and the run's
// [probcut] keys both spell it (node_limit is "nodes").
std::string probcut_fit_setting(const std::string& member);
std::string probcut_fit_flag(const std::string& member);  // `probcut-fit`'s flags

// Throws std::invalid_argument naming the first setting out of range, as
// `name` spells it.
void check_probcut_fit_job(const ProbCutFitJob& job, const FitSettingName& name = probcut_fit_flag);

// "3:1,4:2,..." as pairs; throws std::invalid_argument naming a bad one.
std::vector<std::pair<int, int>> parse_probcut_pairs(const std::string& text);

struct ProbCutSample {
  int game = 0, ply = 0, mushrooms_left = 0;
  std::vector<int> values;  // values[d - 1]: the value at depth d, for each completed depth
  std::optional<int> exact;  // the proven final margin (cells), when solved
};

struct ProbCutFitResult {
  ProbCutFit fit;
  std::vector<ProbCutSample> samples;  // by game, then ply
  uint64_t search_nodes = 0;
  double seconds = 0;
};

// An evaluation's fit file: the same path with the extension .probcut
// (models/eval.bin -> models/eval.probcut, gen-0003.eval -> gen-0003.probcut),
// where the run's fit stage writes it and export-bot looks for it.
std::filesystem::path probcut_fit_path(const std::string& evaluation);

// progress (when given) is called after each game with a line to show.
ProbCutFitResult run_probcut_fit(const ProbCutFitJob& job,
                                 const std::function<void(const std::string&)>& progress = nullptr);

// The fit from samples (as run_probcut_fit ends), for fits made again.
// exact_shallow 0: no `exact` pairs.
ProbCutFit fit_from_samples(const std::vector<ProbCutSample>& samples, const std::vector<std::pair<int, int>>& pairs,
                            int min_samples, const std::string& evaluation, int exact_shallow = 0);

// The samples as CSV (game, ply, mushrooms_left, exact, v1..vD; empty
// where not solved or the depth was not completed), for the record.
std::string probcut_samples_csv(const std::vector<ProbCutSample>& samples, int max_depth);

}  // namespace mushroom
