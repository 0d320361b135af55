#include "agents/probcut_fitting.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "endgame/endgame_solver.h"
#include "mushroom/board_gen.h"
#include "mushroom/movegen.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "util/progress.h"
#include "util/rng.h"
#include "util/text.h"
#include "util/work_pool.h"

namespace mushroom {

std::vector<std::pair<int, int>> ProbCutFitJob::default_pairs() {
  // Two plies shallower at depths 3 to 5, four from depth 6: the shallow
  // search costs a few percent of the deep one, at the same parity.
  return {{3, 1}, {4, 2}, {5, 3}, {6, 2}, {7, 3}, {8, 4}, {9, 5}, {10, 6}, {11, 7}, {12, 8}};
}

std::string probcut_fit_setting(const std::string& member) {
  return member == "node_limit" ? "nodes" : member;
}

std::string probcut_fit_flag(const std::string& member) {
  std::string flag = probcut_fit_setting(member);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return "--" + flag;
}

void check_probcut_fit_job(const ProbCutFitJob& job, const FitSettingName& name) {
  const auto need = [&](bool ok, const std::string& member, const std::string& rule) {
    if (!ok) throw std::invalid_argument("probcut-fit: " + name(member) + " " + rule);
  };
  need(job.games >= 1 && job.games <= 1'000'000, "games", "must be in [1, 1000000]");
  need(job.threads >= 1 && job.threads <= 256, "threads", "must be in [1, 256]");
  need(job.play_depth >= 1 && job.play_depth <= 12, "play_depth", "must be in [1, 12]");
  need(job.random_plies >= 0 && job.random_plies <= 60, "random_plies", "must be in [0, 60]");
  need(job.sample_rate > 0 && job.sample_rate <= 1, "sample_rate", "must be in (0, 1]");
  need(job.max_depth >= 2 && job.max_depth <= ProbCutFit::kMaxDepth, "max_depth",
       "must be in [2, " + std::to_string(ProbCutFit::kMaxDepth) + "]");
  need(job.node_limit >= 1000, "node_limit", "must be at least 1000");
  need(job.tt_bits >= 10 && job.tt_bits <= 28, "tt_bits", "must be in [10, 28]");
  need(job.min_samples >= 3, "min_samples", "must be at least 3");
  need(job.exact_max_left >= 0 && job.exact_max_left <= 170, "exact_max_left", "must be in [0, 170]");
  need(job.exact_nodes >= 1000, "exact_nodes", "must be at least 1000");
  need(job.exact_max_left == 0 || (job.exact_shallow >= 1 && job.exact_shallow <= job.max_depth), "exact_shallow",
       "= " + std::to_string(job.exact_shallow) + " must be in [1, " + name("max_depth") + " = " +
           std::to_string(job.max_depth) + "]: the depth that predicts the exact margin must be searched");
  need(!job.pairs.empty(), "pairs", "names no depth pair to fit");
  for (const auto& [depth, shallow] : job.pairs)
    need(depth >= 2 && depth <= ProbCutFit::kMaxDepth && shallow >= 1 && shallow < depth && (depth - shallow) % 2 == 0,
         "pairs", "pair " + std::to_string(depth) + ":" + std::to_string(shallow) +
             " must have a shallow depth of at least 1, below the depth and of its parity");
}

std::vector<std::pair<int, int>> parse_probcut_pairs(const std::string& text) {
  std::vector<std::pair<int, int>> pairs;
  size_t from = 0;
  while (from <= text.size()) {
    const size_t comma = std::min(text.find(',', from), text.size());
    const std::string item(trim(std::string_view(text).substr(from, comma - from)));
    const size_t colon = item.find(':');
    int depth = 0, shallow = 0;
    if (colon == std::string::npos || !parse_int(std::string_view(item).substr(0, colon), depth) ||
        !parse_int(std::string_view(item).substr(colon + 1), shallow))
      throw std::invalid_argument("depth pair '" + item + "' is not DEPTH:SHALLOW (e.g. 8:4)");
    pairs.emplace_back(depth, shallow);
    from = comma + 1;
  }
  return pairs;
}

namespace {

constexpr auto kNoDeadline = std::chrono::hours(24);

// One thread's searches: one plays the games, one measures their
// positions, and the solver proves the late ones.
struct FitWorker {
  std::unique_ptr<StaticEvaluator> play_eval, measure_eval;
  std::unique_ptr<AlphaBeta> play, measure;
  std::unique_ptr<EndgameSolver> solver;
};

std::unique_ptr<StaticEvaluator> make_evaluator(const nnue::Network* network) {
  if (!network) return nullptr;
  return std::make_unique<nnue::Evaluator>(*network);
}

struct GameSamples {
  std::vector<ProbCutSample> samples;
  uint64_t nodes = 0;
};

GameSamples fit_game(const ProbCutFitJob& job, int game, FitWorker& w) {
  GameSamples out;
  Rng rng(job.seed * 0x9E3779B97F4A7C15ull + uint64_t(game) + 1);
  Position pos = random_board(job.seed * 1'000'003ull + uint64_t(game));
  const int random_plies = int(rng.uniform(uint32_t(job.random_plies) + 1));
  w.play->clear();
  const auto far = [] { return AlphaBeta::Clock::now() + kNoDeadline; };
  while (!pos.game_over()) {
    MoveList list;
    generate_moves(pos, list);
    if (pos.ply() >= random_plies && list.size > 0 && rng.uniform(1'000'000) < uint32_t(job.sample_rate * 1e6)) {
      ProbCutSample s{game, pos.ply(), pos.mushrooms_left(), {}, std::nullopt};
      w.measure->clear();
      uint64_t used = 0;
      for (int depth = 1; depth <= job.max_depth && used < job.node_limit; ++depth) {
        const AlphaBetaResult r = w.measure->search(pos, far(), depth, job.node_limit - used);
        used += r.nodes;
        if (r.depth < depth) break;  // the node limit stopped it
        s.values.push_back(r.score);
      }
      if (w.solver && s.mushrooms_left <= job.exact_max_left) {
        w.solver->clear();
        const int guess = s.values.empty() ? 0 : s.values.back() / kEvalScale;
        if (const std::optional<EndgameProof> proof = w.solver->solve(pos, {job.exact_nodes, std::nullopt}, guess)) {
          s.exact = proof->margin;
          used += proof->nodes;
        } else {
          used += job.exact_nodes;
        }
      }
      out.nodes += used;
      out.samples.push_back(std::move(s));
    }
    Move move = Move::pass();
    if (pos.ply() < random_plies) {
      if (list.size > 0) move = list.moves[rng.uniform(uint32_t(list.size))];
    } else {
      const AlphaBetaResult r = w.play->search(pos, far(), job.play_depth);
      out.nodes += r.nodes;
      move = r.best;
    }
    pos.apply(move);
  }
  return out;
}

}  // namespace

ProbCutFit fit_from_samples(const std::vector<ProbCutSample>& samples, const std::vector<std::pair<int, int>>& pairs,
                            int min_samples, const std::string& evaluation, int exact_shallow) {
  ProbCutFit fit;
  fit.evaluation = evaluation;
  // One band's regression of `deep` on the value at depth `shallow`, over
  // the samples that have both. A pair that does not predict (too few
  // samples, no spread left, or values that fall as the shallow ones rise)
  // is not a test the search can use.
  const auto fit_band = [&](int band, int depth, int shallow, auto&& deep_of) {
    std::vector<std::pair<double, double>> xy;
    for (const ProbCutSample& s : samples)
      if (ProbCutFit::band_of(s.mushrooms_left) == band && int(s.values.size()) >= shallow)
        if (const std::optional<double> deep = deep_of(s)) xy.emplace_back(s.values[size_t(shallow - 1)], *deep);
    if (int(xy.size()) < min_samples) return;
    const ProbCutPair p = fit_probcut_pair(depth, shallow, xy);
    if (p.samples > 0 && p.slope > 0 && p.spread > 0) fit.set(band, p);
  };
  for (int band = 0; band < ProbCutFit::kBands; ++band) {
    if (exact_shallow > 0)
      fit_band(band, ProbCutFit::kExactDepth, exact_shallow, [](const ProbCutSample& s) -> std::optional<double> {
        if (!s.exact) return std::nullopt;
        return double(kEvalScale * *s.exact);
      });
    for (const auto& [depth, shallow] : pairs)
      fit_band(band, depth, shallow, [depth = depth](const ProbCutSample& s) -> std::optional<double> {
        if (int(s.values.size()) < depth) return std::nullopt;
        return double(s.values[size_t(depth - 1)]);
      });
  }
  return fit;
}

std::filesystem::path probcut_fit_path(const std::string& evaluation) {
  return std::filesystem::path(evaluation).replace_extension(".probcut");
}

ProbCutFitResult run_probcut_fit(const ProbCutFitJob& job, const std::function<void(const std::string&)>& progress) {
  check_probcut_fit_job(job);
  const auto start = std::chrono::steady_clock::now();
  // The file is read once: its bytes make the network and name it in the fit.
  std::unique_ptr<nnue::Network> network;
  std::string evaluation = "hand";
  if (!job.eval.empty()) {
    const std::string bytes = read_file(job.eval);
    network = std::make_unique<nnue::Network>(nnue::parse_network(bytes, job.eval));
    evaluation = probcut_evaluation_of_bytes(bytes);
  }

  AlphaBetaConfig play_config = playing_search_config();
  play_config.tt_bits = std::min(job.tt_bits, 18);
  AlphaBetaConfig measure_config = playing_search_config();
  measure_config.tt_bits = job.tt_bits;
  const int threads = std::min(job.threads, job.games);
  std::vector<FitWorker> workers(static_cast<size_t>(threads));
  for (FitWorker& w : workers) {
    w.play_eval = make_evaluator(network.get());
    w.measure_eval = make_evaluator(network.get());
    w.play = std::make_unique<AlphaBeta>(play_config, w.play_eval.get());
    w.measure = std::make_unique<AlphaBeta>(measure_config, w.measure_eval.get());
    if (job.exact_max_left > 0) w.solver = std::make_unique<EndgameSolver>(EndgameConfig{.tt_bits = job.tt_bits});
  }

  std::vector<GameSamples> games(size_t(job.games));
  std::mutex mutex;
  int done = 0;
  size_t positions = 0;
  uint64_t nodes = 0;
  mushroom::progress().expect(job.games);  // the process's reporter (util/progress.h)
  run_jobs(job.games, threads, [&](int game, int slot) {
    GameSamples g = fit_game(job, game, workers[size_t(slot)]);
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    positions += g.samples.size();
    nodes += g.nodes;
    games[size_t(game)] = std::move(g);
    mushroom::progress().set_detail(std::to_string(positions) + " positions");
    mushroom::progress().add();
    if (progress) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress("probcut-fit: " + std::to_string(done) + "/" + std::to_string(job.games) + " games, " +
               std::to_string(positions) + " positions, " + format_fixed(double(nodes) / std::max(seconds, 1e-9), 0) +
               " nodes/s");
    }
  });

  ProbCutFitResult result;
  for (GameSamples& g : games) {
    result.search_nodes += g.nodes;
    for (ProbCutSample& s : g.samples) result.samples.push_back(std::move(s));
  }
  result.fit = fit_from_samples(result.samples, job.pairs, job.min_samples, evaluation,
                                job.exact_max_left > 0 ? job.exact_shallow : 0);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string probcut_samples_csv(const std::vector<ProbCutSample>& samples, int max_depth) {
  std::string out = "game,ply,mushrooms_left,exact";
  for (int d = 1; d <= max_depth; ++d) out += ",v" + std::to_string(d);
  out += "\n";
  for (const ProbCutSample& s : samples) {
    out += std::to_string(s.game) + "," + std::to_string(s.ply) + "," + std::to_string(s.mushrooms_left) + "," +
           (s.exact ? std::to_string(*s.exact) : "");
    for (int d = 1; d <= max_depth; ++d) out += "," + (d <= int(s.values.size()) ? std::to_string(s.values[size_t(d - 1)]) : "");
    out += "\n";
  }
  return out;
}

}  // namespace mushroom
