#include "selfplay/eval_selfplay.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include "agents/local_match.h"
#include "mushroom/board_gen.h"
#include "mushroom/static_evaluator.h"
#include "nn/cpu_net.h"
#include "protocol/game_log.h"
#include "selfplay/selfplay_workers.h"
#include "selfplay/shard.h"
#include "util/text.h"

namespace mushroom::selfplay {

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<EvalSelfplayConfig>& eval_selfplay_settings() {
  static const SettingsTable<EvalSelfplayConfig> table =
      SettingsTable<EvalSelfplayConfig>("evalplay")
          .integer("label_depth", FIELD(label_depth), 1, 12, "alpha-beta depth of every labelled search")
          .integer("label_nodes", FIELD(label_nodes), 0, 1'000'000'000,
                   "node budget of each labelled search: the deepest iteration finished within it gives the label "
                   "and the move (0: label_depth alone bounds the search)")
          .choice("label_search", FIELD(label_search), {"plain", "playing"},
                  "the label's search: plain (no quiescence, one-ply reductions, every label before issue 71) or "
                  "playing (the shipped search's reductions and quiescence, alphabeta/playing_search.h)")
          .flag("label_parity_mean", FIELD(label_parity_mean),
                "label with the mean of the searches at label_depth and label_depth + 1 (the deeper one reuses the "
                "shallower one's table), so neither depth's parity bias is learned alone")
          .flag("label_probcut", FIELD(label_probcut),
                "the playing search (label_search = \"playing\") also prunes with Multi-ProbCut, with the fit of the "
                "evaluation that labels, as the contest bot searches; in a run ([probcut] enabled) self-play by the "
                "best evaluation so far uses its fit from the run's fit stage (the hand evaluation has none and "
                "labels without); `mushroom relabel` takes the fit as --probcut FIT")
          .integer("exact_mushrooms", FIELD(exact_mushrooms), 0, 170,
                   "at or below this many mushrooms left, the endgame solver is tried first: a position it proves "
                   "is labelled with the proven final margin and its move is played (0: never)")
          .integer("exact_nodes", FIELD(exact_nodes), 1, 1'000'000'000, "node budget of each exact solve")
          .integer("focus_label_depth", FIELD(focus_label_depth), 0, 12,
                   "the label search's depth at focus_min..focus_max mushrooms left, where games between strong bots "
                   "are decided (0: label_depth there too)")
          .integer("focus_min", FIELD(focus_min), 0, 170, "mushrooms left: the focus band's lower end (inclusive)")
          .integer("focus_max", FIELD(focus_max), 0, 170, "mushrooms left: the focus band's upper end (inclusive)")
          .real("random_move_fraction", FIELD(random_move_fraction), 0.0, 1.0,
                "moves after the opening played uniformly at random (their positions still labelled)")
          .text("teacher", FIELD(teacher), "conv-net model file whose value labels every sample (empty: none)")
          .integer("heldout_games", FIELD(heldout_games), 1, 100000,
                   "games played once per run, apart from self-play, to measure how well each evaluation "
                   "predicts results");
  return table;
}

#undef FIELD

namespace {

class Worker {
 public:
  Worker(SelfplayCounters& counters, const EvalSelfplayJob& job, int index)
      : counters_(counters),
        job_(job),
        index_(index),
        labeller_(job.eval.label_config(), job.evaluation.get(), job.probcut.get()) {
    if (job.teacher) teacher_ = std::make_unique<nn::CpuNet>(*job.teacher);
  }

  void run() {
    while (const std::optional<int> k = counters_.take_game()) play_game(job_.job.first_game_id + *k);
    pending_.flush(true, counters_, index_);
  }

 private:
  void play_game(int64_t id) {
    const SelfplayConfig& config = job_.job.config;
    const uint64_t seed = board_seed(config.seed, id);
    Position pos = random_board(seed);
    Rng rng(seed ^ 0xe7a1);
    MoveList list;
    const int opening = int(rng.uniform(uint32_t(config.random_opening_plies + 1)));
    for (int p = 0; p < opening && !pos.game_over(); ++p) {
      const int n = generate_moves(pos, list);
      pos.apply(n > 0 ? list[rng.uniform(uint32_t(n))] : Move::pass());
    }
    if (pos.game_over()) pos = random_board(seed);
    // The job's first sample_games games are also kept as game logs for the
    // viewer and the run's dashboard, from after the random opening.
    std::optional<GameLog> log;
    if (id - job_.job.first_game_id < config.sample_games) log.emplace().start = pos;
    std::vector<Sample> samples;
    bool proven = false;  // once the solver proves a position, the rest of the game is its line
    while (!pos.game_over() && pos.ply() < kMaxTurns) {
      const auto searched_from = std::chrono::steady_clock::now();
      const Label label = labeller_.label(pos, proven);
      proven = label.labels.exact;
      counters_.nn_positions += int64_t(label.search_nodes);
      EvalLabels labels = label.labels;
      const Move best = label.best;
      if (teacher_) {
        nn::NetEval e;
        teacher_->evaluate(pos, nullptr, 0, e);
        labels.has_teacher = true;
        labels.teacher = int(std::lround(1000.0 * e.value()));
      }
      Sample s = eval_sample(pos, labels);
      s.game_id = id;
      s.search_value = float(labels.search_score) / float(kEvalScale);
      samples.push_back(std::move(s));
      Move move = best;
      if (!labels.exact && rng.uniform_double() < job_.eval.random_move_fraction) {
        const int n = generate_moves(pos, list);
        if (n > 0) {
          move = list[rng.uniform(uint32_t(n))];
          samples.back().set(mushroom_eval_schema().field("random_move"), 0, 1);
        }
      }
      if (log) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                              searched_from);
        log->moves.push_back({pos.to_move(), move, int(ms.count())});
      }
      pos.apply(move);
    }
    if (log) write_log(*log, pos, id);
    const int first_margin = pos.score(kFirst) - pos.score(kSecond);
    for (Sample& s : samples) {
      const int margin = s.to_move == kFirst ? first_margin : -first_margin;
      set_eval_margin(s, margin);
      s.outcome = int8_t((margin > 0) - (margin < 0));
      pending_.samples.push_back(std::move(s));
    }
    counters_.samples += int64_t(samples.size());
    counters_.plies += pos.ply();
    ++counters_.games_done;
    pending_.add_game(id);
    pending_.flush(false, counters_, index_);
  }

  void write_log(GameLog& log, const Position& end, int64_t id) const {
    log.finished = true;
    log.score_first = end.score(kFirst);
    log.score_second = end.score(kSecond);
    const std::filesystem::path dir = std::filesystem::path(job_.job.out_dir) / "games";
    std::filesystem::create_directories(dir);
    write_file_atomic((dir / ("game-" + std::to_string(id) + ".log")).string(), format_game_log(log));
  }

  SelfplayCounters& counters_;
  const EvalSelfplayJob& job_;
  int index_;
  Labeller labeller_;
  std::unique_ptr<nn::CpuNet> teacher_;
  PendingShard pending_{mushroom_eval_schema().game, {}, 0};
};

}  // namespace

SelfplayProgress run_eval_selfplay(const EvalSelfplayJob& job) {
  if (job.job.carry || job.job.config.carry_games)
    throw std::invalid_argument("selfplay.carry_games is for the conv net's self-play only, not the learned evaluation's");
  // Refused here, by name, rather than in every worker.
  check_label_config(job.eval.label_config());
  check_label_fit(job.eval.label_config(), job.evaluation.get(), job.probcut.get(), job.probcut_source);
  std::filesystem::create_directories(job.job.out_dir);
  SelfplayCounters counters(job.job);
  counters.alpha_beta = true;
  return run_worker_threads(counters, [&](int w) { Worker(counters, job, w).run(); });
}

}  // namespace mushroom::selfplay
