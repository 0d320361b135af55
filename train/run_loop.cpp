#include "train/run_loop.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "nn/model_file.h"
#include "selfplay/blockgame_selfplay.h"
#include "selfplay/selfplay_runner.h"
#include "train/blockgame_grade.h"
#include "train/match.h"
#include "train/plots.h"
#include "train/run_config.h"
#include "train/trainer.h"
#include "util/text.h"
#include "view/dashboard.h"
#include "view/run_metrics.h"

namespace mushroom::train {

namespace fs = std::filesystem;

namespace {

std::string gen_name(int g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "gen-%04d", g);
  return buf;
}

struct Paths {
  fs::path dir;
  fs::path data(int g) const { return dir / "data" / gen_name(g); }
  fs::path model(int g) const { return dir / "models" / (gen_name(g) + ".h5"); }
  fs::path record(int g) const { return dir / "metrics" / (gen_name(g) + ".json"); }
  fs::path train_metrics(int g) const { return dir / "metrics" / ("train-" + gen_name(g) + ".jsonl"); }
  fs::path optimizer() const { return dir / "optimizer.pt"; }
};

void remove_temp_files(const fs::path& dir) {
  if (!fs::exists(dir)) return;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().find(".tmp") != std::string::npos) fs::remove(e.path());
}

}  // namespace

std::string best_model_of_run(const std::string& dir, const std::string& fallback) {
  const Paths paths{dir};
  std::string best = fallback;
  for (int g = 1; fs::exists(paths.record(g)); ++g) {
    if (view::json_number(read_file(paths.record(g).string()), "promoted") > 0) best = paths.model(g).string();
  }
  return best;
}

void run_training_loop(const RunOptions& options) {
  auto log = [&](const std::string& line) {
    if (options.log) options.log(line);
  };
  const RunConfig config = load_run_config(options.config_path);
  const Paths paths{options.dir};
  fs::create_directories(paths.dir / "models");
  fs::create_directories(paths.dir / "metrics");
  fs::create_directories(paths.dir / "plots");
  remove_temp_files(paths.dir);
  const std::string config_copy = (paths.dir / "config.toml").string();
  const std::string config_text = read_file(options.config_path);
  if (fs::exists(config_copy) && read_file(config_copy) != config_text)
    log("note: " + options.config_path + " differs from the run's saved config; using the new one from here on");
  write_file_atomic(config_copy, config_text);
  const int generations = options.generations > 0 ? options.generations : config.generations;
  const bool blockgame = config.game() == nn::GameKind::kBlockgame;
  // Blockgame evaluation grades the same held-out positions every generation.
  struct BlockgameGrading {
    explicit BlockgameGrading(int count) : positions(blockgame_grading_positions(count, kBlockgameGradingSeed, solver)) {}
    blockgame::Solver solver;
    std::vector<GradePosition> positions;
  };
  std::unique_ptr<BlockgameGrading> grading;

  for (int g = 1; g <= generations; ++g) {
    if (fs::exists(paths.record(g))) continue;  // finished earlier
    const std::string best = best_model_of_run(paths.dir.string(), options.init_model);
    log("== generation " + std::to_string(g) + " of " + std::to_string(generations) +
        " (self-play with " + (best.empty() ? (blockgame ? std::string("uniform priors") : "the " + config.selfplay.bootstrap + " evaluator") : best) + ")");

    // 1. Self-play, resuming from the finished shards of this generation.
    const fs::path data_dir = paths.data(g);
    fs::create_directories(data_dir);
    int games_done = 0;
    int64_t next_id = int64_t(g) * 100'000'000;
    for (const std::string& shard_path : find_shards(data_dir.string())) {
      selfplay::ShardMeta meta;
      if (blockgame) {
        for (const auto& s : selfplay::read_blockgame_shard(shard_path, &meta)) next_id = std::max(next_id, s.game_id + 1);
      } else {
        const selfplay::Shard shard = selfplay::read_shard(shard_path);
        meta = shard.meta;
        for (const auto& s : shard.samples) next_id = std::max(next_id, s.game_id + 1);
      }
      games_done += int(meta.games);
    }
    selfplay::SelfplayProgress sp_stats;
    if (games_done < config.selfplay.games) {
      selfplay::SelfplayJob job;
      job.config = config.selfplay;
      if (!best.empty()) {
        job.model = std::make_shared<nn::Model>(nn::load_model(best));
        job.model_id = best;
      } else {
        job.model_id = "bootstrap-" + config.selfplay.bootstrap;
      }
      job.config_hash = config.hash;
      job.out_dir = data_dir.string();
      job.games = config.selfplay.games - games_done;
      job.first_game_id = next_id;
      job.progress = [&](const selfplay::SelfplayProgress& p) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "selfplay: %d/%d games, %.1f games/min, mean length %.1f plies, batch fill %.0f%%, %lld samples",
                      p.games_done, p.games_total, p.seconds > 0 ? p.games_done * 60.0 / p.seconds : 0,
                      p.mean_game_plies, 100 * p.batch_fill, (long long)p.samples);
        log(line);
      };
      sp_stats = blockgame ? selfplay::run_blockgame_selfplay(job) : selfplay::run_selfplay(job);
    } else {
      log("selfplay: already complete (" + std::to_string(games_done) + " games)");
    }

    // 2. Training.
    TrainStats tr_stats;
    if (!fs::exists(paths.model(g))) {
      nn::Model start;
      if (g > 1 && fs::exists(paths.model(g - 1))) start = nn::load_model(paths.model(g - 1).string());
      else if (!options.init_model.empty()) start = nn::load_model(options.init_model);
      else start = nn::random_model(config.net, config.seed);
      if (!(start.config == config.net))
        throw std::runtime_error("the run's previous model is a " + nn::describe(start.config) +
                                 " net but the config asks for " + nn::describe(config.net));
      const TrainingWindow window = load_window(find_shards((paths.dir / "data").string()), config.train.window_samples,
                                                [&](const std::string& w) { log("train: " + w); }, config.game());
      log("train: window of " + std::to_string(window.size()) + " samples from " +
          std::to_string(window.used.size()) + " shards, " + std::to_string(config.train.steps) + " steps");
      Trainer trainer(config.train, start, paths.optimizer().string());
      std::string metrics;
      tr_stats = trainer.train(window, config.train.steps, g, &metrics, std::max(1, config.train.steps / 20),
                               [&](const TrainStats& s) {
                                 char line[200];
                                 std::snprintf(line, sizeof line, "train: step %d/%d, %.1f steps/s", s.steps,
                                               config.train.steps, s.steps / std::max(1e-9, s.seconds));
                                 log(line);
                               });
      write_file_atomic(paths.train_metrics(g).string(), metrics);
      trainer.save_optimizer();
      nn::save_model(trainer.model({{"model_id", gen_name(g)},
                                    {"generation", std::to_string(g)},
                                    {"config_hash", config.hash},
                                    {"train_steps", std::to_string(tr_stats.steps)}}),
                     paths.model(g).string());
      char line[200];
      std::snprintf(line, sizeof line, "train: loss %.4f (policy %.4f, value %.4f, score %.4f, ownership %.4f)",
                    tr_stats.loss, tr_stats.policy, tr_stats.value, tr_stats.score, tr_stats.ownership);
      log(line);
    }

    // 3. Gate and evaluate.
    const std::string candidate = paths.model(g).string();
    MatchResult gate;
    bool promoted = true;
    if (config.gate.enabled && blockgame) {
      gate = play_blockgame_match(candidate, best, config.gate.boards, config.seed * 1000 + uint64_t(g), config.gate.sims,
                                  config.selfplay.device);
    } else if (config.gate.enabled) {
      const AgentMaker opponent = best.empty()
                                      ? builtin_agent_maker("mcts", {{"sims", std::to_string(config.gate.sims)}})
                                      : nn_agent_maker(best, config.gate.sims);
      gate = play_paired_match(nn_agent_maker(candidate, config.gate.sims), opponent, config.gate.boards,
                               config.seed * 1000 + uint64_t(g), options.threads);
    }
    if (config.gate.enabled) {
      promoted = gate.score() > config.gate.promote_score;
      char line[200];
      std::snprintf(line, sizeof line, "gate: candidate scores %.3f (+%d =%d -%d) against %s: %s", gate.score(),
                    gate.wins, gate.draws, gate.losses, best.empty() ? "mcts (no net)" : best.c_str(),
                    promoted ? "promoted" : "kept the previous best");
      log(line);
    }
    MatchResult eval;
    std::string grade_fields;  // blockgame: the grading's accuracies, for the record
    const bool evaluate = config.eval.every > 0 && g % config.eval.every == 0;
    if (evaluate && blockgame) {
      if (!grading) grading = std::make_unique<BlockgameGrading>(config.eval.positions);
      const GradeReport report = grade_blockgame(nn::load_model(candidate), grading->positions, config.eval.sims,
                                                 grading->solver, config.selfplay.device);
      eval.games = report.won;
      eval.wins = int(std::lround(report.mcts_accuracy * report.won));
      eval.losses = report.won - eval.wins;
      char fields[256];
      std::snprintf(fields, sizeof fields,
                    ", \"policy_accuracy\": %.6f, \"mcts_accuracy\": %.6f, \"value_accuracy\": %.6f, "
                    "\"random_accuracy\": %.6f, \"grade_positions\": %d",
                    report.policy_accuracy, report.mcts_accuracy, report.value_accuracy, report.random_accuracy,
                    report.positions);
      grade_fields = fields;
      char line[256];
      std::snprintf(line, sizeof line,
                    "eval: winning-move accuracy on %d held-out positions: policy %.4f, mcts@%d %.4f; value %.4f "
                    "(random policy %.4f)",
                    report.positions, report.policy_accuracy, config.eval.sims, report.mcts_accuracy,
                    report.value_accuracy, report.random_accuracy);
      log(line);
    } else if (evaluate) {
      eval = play_paired_match(nn_agent_maker(candidate, config.eval.sims), builtin_agent_maker("greedy"),
                               config.eval.boards, config.seed * 7777 + uint64_t(g), options.threads);
      char line[160];
      std::snprintf(line, sizeof line, "eval: candidate scores %.3f against greedy (mean margin %+.1f)", eval.score(),
                    eval.mean_margin);
      log(line);
    }
    std::ostringstream record;
    record << "{\"generation\": " << g << ", \"promoted\": " << (promoted ? 1 : 0)
           << ", \"selfplay_games\": " << games_done + sp_stats.games_done << ", \"selfplay_seconds\": " << sp_stats.seconds
           << ", \"selfplay_games_per_minute\": "
           << (sp_stats.seconds > 0 ? sp_stats.games_done * 60.0 / sp_stats.seconds : 0)
           << ", \"selfplay_samples\": " << sp_stats.samples << ", \"mean_game_plies\": " << sp_stats.mean_game_plies
           << ", \"batch_fill\": " << sp_stats.batch_fill << ", \"nn_positions\": " << sp_stats.nn_positions
           << ", \"train_steps\": " << tr_stats.steps << ", \"train_seconds\": " << tr_stats.seconds
           << ", \"loss\": " << tr_stats.loss << ", \"samples_seen\": " << tr_stats.samples_seen
           << ", \"gate_games\": " << gate.games << ", \"gate_score\": " << gate.score()
           << ", \"eval_games\": " << eval.games << ", \"eval_score\": " << (evaluate ? eval.score() : -1)
           << ", \"eval_margin\": " << eval.mean_margin << grade_fields << "}\n";
    write_file_atomic(paths.record(g).string(), record.str());
    try {
      const std::string png = draw_run_plots(paths.dir.string());
      log("plots: " + png);
    } catch (const std::exception& e) {
      log(std::string("plots: warning: ") + e.what());
    }
    try {
      log("dashboard: " + view::write_dashboard(paths.dir.string()));
    } catch (const std::exception& e) {
      log(std::string("dashboard: warning: ") + e.what());
    }
  }
  const std::string best = best_model_of_run(paths.dir.string(), options.init_model);
  log("run complete: " + std::to_string(generations) + " generations; best model: " + (best.empty() ? "none" : best));
}

}  // namespace mushroom::train
