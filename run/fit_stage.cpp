#include "run/fit_stage.h"

#include <cstdio>
#include <stdexcept>

#include "agents/probcut_fitting.h"
#include "alphabeta/probcut.h"
#include "util/log_level.h"
#include "util/text.h"

namespace mushroom::run {

namespace fs = std::filesystem;

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<ProbCutStageConfig>& probcut_stage_settings() {
  static const SettingsTable<ProbCutStageConfig> table =
      SettingsTable<ProbCutStageConfig>("probcut")
          .flag("enabled", FIELD(enabled),
                "learned-evaluation runs: fit Multi-ProbCut for each candidate (models/gen-NNNN.probcut) and the "
                "--init model before gating, and play the gate, the evaluation and the ladder with the fits, as the "
                "contest bot searches; false: no fits, no ProbCut in the run's matches")
          .integer("games", FIELD(games), 1, 1'000'000, "the fit's self-play games (`probcut-fit --games`)")
          .integer("play_depth", FIELD(play_depth), 1, 12, "the games' moves: the playing search at this depth")
          .integer("random_plies", FIELD(random_plies), 0, 60, "each game's first 0..N moves are random")
          .real("sample_rate", FIELD(sample_rate), 0.001, 1.0, "the share of the games' positions searched again")
          .integer("max_depth", FIELD(max_depth), 2, 32,
                   "each sampled position is searched to this depth (pairs deeper than it are not fitted)")
          .integer("nodes", FIELD(nodes), 1000, int64_t(1) << 40, "...unless it passes this many nodes first")
          .integer("exact_max_left", FIELD(exact_max_left), 0, 170,
                   "also solve positions with at most this many mushrooms left and fit the exact margin (the "
                   "endgame solver's selective mode; 0: none)")
          .integer("exact_nodes", FIELD(exact_nodes), 1000, int64_t(1) << 40, "the solver's node limit per position")
          .integer("exact_shallow", FIELD(exact_shallow), 1, 32, "the depth whose value predicts the exact margin")
          .integer("threads", FIELD(threads), 1, 256, "games fitted side by side (the fit is the same at any count)")
          .integer("seed", FIELD(seed), 0, 2'000'000'000, "the fit's boards and random moves");
  return table;
}

#undef FIELD

ProbCutFitJob probcut_fit_job(const ProbCutStageConfig& config, const std::string& evaluation) {
  ProbCutFitJob job;
  job.eval = evaluation;
  job.games = config.games;
  job.seed = uint64_t(config.seed);
  job.threads = config.threads;
  job.play_depth = config.play_depth;
  job.random_plies = config.random_plies;
  job.sample_rate = config.sample_rate;
  job.max_depth = config.max_depth;
  job.node_limit = uint64_t(config.nodes);
  job.exact_max_left = config.exact_max_left;
  job.exact_nodes = uint64_t(config.exact_nodes);
  job.exact_shallow = config.exact_shallow;
  // The fit's own rules, whatever this table lets through, named as keys.
  check_probcut_fit_job(job, [](const std::string& member) { return "probcut." + probcut_fit_setting(member); });
  return job;
}

void check_fit_of(const std::string& evaluation, const std::string& fit) {
  try {
    check_probcut_evaluation(read_probcut_fit(fit), probcut_evaluation_name(evaluation), fit);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + " (the fit of " + evaluation +
                                " must be made with it: remove " + fit + " and the run fits it again)");
  }
}

std::string fit_evaluation(const ProbCutStageConfig& config, const std::string& evaluation,
                           const std::function<void(const std::string&)>& log) {
  const std::string out = probcut_fit_path(evaluation).string();
  if (fs::exists(out)) {  // made before a resume, or copied from beside the --init model
    check_fit_of(evaluation, out);
    return out;
  }
  const ProbCutFitJob job = probcut_fit_job(config, evaluation);
  log("probcut: fitting " + evaluation + " (" + std::to_string(job.games) + " games, depth " +
      std::to_string(job.max_depth) + ") -> " + out);
  // The progress line counts the games (util/progress.h); --verbose logs each.
  const ProbCutFitResult result = run_probcut_fit(job, [&](const std::string& line) {
    if (verbose()) log("probcut: " + line);
  });
  char header[400];
  std::snprintf(header, sizeof header,
                "the run's fit stage ([probcut]): %s, %d games, seed %d, play depth %d, random plies %d, sample "
                "rate %.3f, max depth %d, nodes %lld, exact max left %d (nodes %lld, shallow %d)\n%zu positions",
                evaluation.c_str(), job.games, int(job.seed), job.play_depth, job.random_plies, job.sample_rate,
                job.max_depth, static_cast<long long>(job.node_limit), job.exact_max_left,
                static_cast<long long>(job.exact_nodes), job.exact_shallow, result.samples.size());
  // Its presence marks the stage as done: written whole or not at all.
  write_file_atomic(out, format_probcut_fit(result.fit, header));
  char line[200];
  std::snprintf(line, sizeof line, "probcut: %zu positions, %zu pairs in %.1f s", result.samples.size(),
                result.fit.entries().size(), result.seconds);
  log(line);
  return out;
}

void fit_gate_players(const ProbCutStageConfig& config, const RunDir& run, int generation, const std::string& best,
                      const std::function<void(const std::string&)>& log) {
  if (!config.enabled) return;
  fit_evaluation(config, run.model(generation).string(), log);
  if (!best.empty()) fit_evaluation(config, best, log);  // the --init model's, once; a promoted one's exists
}

void fit_selfplay_player(const ProbCutStageConfig& config, bool label_probcut, const std::string& best,
                         const std::function<void(const std::string&)>& log) {
  if (!label_probcut) return;
  if (best.empty()) {
    log("probcut: self-play with the hand evaluation labels without ProbCut (the run fits none for it)");
    return;
  }
  fit_evaluation(config, best, log);
}

void adopt_init_fit(const std::string& init_model, const std::string& run_copy,
                    const std::function<void(const std::string&)>& log) {
  const fs::path ours = probcut_fit_path(run_copy), beside = probcut_fit_path(init_model);
  if (fs::exists(ours) || !fs::exists(beside)) return;
  check_fit_of(init_model, beside.string());
  write_file_atomic(ours.string(), read_file(beside.string()));
  log("probcut: the --init model's fit " + beside.string() + " -> " + ours.string());
}

}  // namespace mushroom::run
