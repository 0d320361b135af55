#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cli/bench_report.h"
#include "cli/command.h"
#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "endgame/exact_solvers.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "mushroom/playout_positions.h"
#include "mushroom/position_io.h"
#include "util/shipped_file.h"
#include "util/text.h"

namespace mushroom::cli {

namespace {

// Buckets of mushrooms left, as the endgame issue measures reach.
struct Bucket {
  const char* name;
  int lo, hi;  // mushrooms left, inclusive
};
constexpr Bucket kBuckets[] = {
    {"<=89", 0, 89}, {"90-104", 90, 104}, {"105-119", 105, 119}, {"120-134", 120, 134}, {">=135", 135, 1 << 20}};

// The bucket a position with `left` mushrooms falls in.
size_t bucket_of(int left) {
  size_t b = 0;
  while (left > kBuckets[b].hi) ++b;
  return b;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One solver over every position, each from an empty table under the limit.
struct Run {
  std::vector<std::optional<int>> values;
  std::vector<double> ms;  // a position not proved counts at the limit
};

Run run_solver(ExactSolverKind kind, const std::vector<Position>& positions, double limit_ms, int tt_bits, bool wdl,
               const EndgameConfig& endgame = {}) {
  ExactSolver solver(kind, tt_bits, endgame);
  Run run;
  for (size_t i = 0; i < positions.size(); ++i) {
    solver.clear();  // every position from an empty table: no help from the one before
    const auto t0 = std::chrono::steady_clock::now();
    const auto deadline = t0 + std::chrono::microseconds(int64_t(limit_ms * 1000));
    const std::optional<ExactAnswer> answer = solver.solve(positions[i], wdl, 0, deadline);
    run.values.push_back(answer ? std::optional<int>(answer->value) : std::nullopt);
    run.ms.push_back(answer ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
                            : limit_ms);
    if ((i + 1) % 25 == 0 || i + 1 == positions.size())
      std::fprintf(stderr, "bench endgame (%s): %zu/%zu positions\n", exact_solver_name(kind), i + 1, positions.size());
  }
  return run;
}

// The dedicated solver's selective mode over every position, as run_solver
// runs the exact one: each from an empty table under the limit. Its
// answers are estimates; its table's "proved" column counts answers.
Run run_selective(const std::vector<Position>& positions, double limit_ms, int tt_bits, bool wdl,
                  const EndgameConfig& endgame, const SelectiveEndgame& selective, EndgameSearchStats& totals) {
  EndgameConfig config = endgame;
  config.tt_bits = tt_bits;
  EndgameSolver solver(config);
  Run run;
  for (size_t i = 0; i < positions.size(); ++i) {
    solver.set_selective(selective);  // empties the table
    selective.shallow->clear();
    const auto t0 = std::chrono::steady_clock::now();
    const EndgameSolver::Limits limits{0, t0 + std::chrono::microseconds(int64_t(limit_ms * 1000))};
    const std::optional<EndgameProof> answer = wdl ? solver.solve_wdl(positions[i], limits) : solver.solve(positions[i], limits);
    totals.selective_cuts += solver.stats().selective_cuts;
    totals.shallow_nodes += solver.stats().shallow_nodes;
    run.values.push_back(answer ? std::optional<int>(answer->margin) : std::nullopt);
    run.ms.push_back(answer ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
                            : limit_ms);
    if ((i + 1) % 25 == 0 || i + 1 == positions.size())
      std::fprintf(stderr, "bench endgame (selective): %zu/%zu positions\n", i + 1, positions.size());
  }
  return run;
}

// How the selective answers compare with the exact ones where both came:
// the same value, the mean absolute difference, and a different result
// (win, draw or loss) for the side to move.
void print_agreement(const Run& exact, const Run& selective) {
  int both = 0, same = 0, result_differs = 0;
  double abs_sum = 0;
  const auto sign = [](int v) { return (v > 0) - (v < 0); };
  for (size_t i = 0; i < exact.values.size(); ++i) {
    if (!exact.values[i] || !selective.values[i]) continue;
    ++both;
    same += *exact.values[i] == *selective.values[i];
    abs_sum += std::abs(*exact.values[i] - *selective.values[i]);
    result_differs += sign(*exact.values[i]) != sign(*selective.values[i]);
  }
  std::printf("selective against exact, on the %d positions both answered: the same value %d, mean |difference| %.3f "
              "cells, another result (win/draw/loss) %d\n",
              both, same, both ? abs_sum / both : 0.0, result_differs);
}

// The table by bucket; returns the fraction proved in each bucket.
std::vector<double> print_table(const char* title, const std::vector<Position>& positions, const Run& run) {
  const size_t n_buckets = std::size(kBuckets);
  std::vector<std::vector<double>> times(n_buckets);
  std::vector<int> proved(n_buckets, 0);
  for (size_t i = 0; i < positions.size(); ++i) {
    const size_t b = bucket_of(positions[i].mushrooms_left());
    times[b].push_back(run.ms[i]);
    proved[b] += run.values[i].has_value();
  }
  std::printf("%s\n%-8s %9s %8s %10s\n", title, "left", "positions", "proved", "median_ms");
  std::vector<double> fractions;
  for (size_t b = 0; b < n_buckets; ++b) {
    fractions.push_back(times[b].empty() ? 0.0 : double(proved[b]) / double(times[b].size()));
    std::printf("%-8s %9zu %8.3f %10.1f\n", kBuckets[b].name, times[b].size(), fractions[b], median(times[b]));
  }
  return fractions;
}

// What the bot's own search gives away where the solver proved the margin:
// for each proved position, the agent's move (a fresh `agent_name` with
// `options`, move_ms among them), and the proven margin after it (solved
// under the same limit). By bucket: how many were measured, how many moves
// lost cells, and the cells lost.
void print_regret(const std::string& agent_spec, const std::string& agent_name, const AgentOptions& options,
                  double move_ms, const std::vector<Position>& positions, const Run& run, ExactSolver& solver,
                  double limit_ms) {
  const size_t n_buckets = std::size(kBuckets);
  std::vector<int> measured(n_buckets, 0), lossy(n_buckets, 0), unsolved(n_buckets, 0), cells(n_buckets, 0),
      worst(n_buckets, 0);
  size_t done = 0, total = 0;
  for (const auto& v : run.values) total += v.has_value();
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!run.values[i]) continue;
    const Position& pos = positions[i];
    std::unique_ptr<Agent> agent = make_agent(agent_name, options);
    agent->new_game(pos, pos.to_move());
    const Move move = agent->choose_move(pos, Clock{});
    Position after = pos;
    after.apply(move);
    std::optional<int> kept;  // the proven margin after the move, for the mover
    if (after.game_over()) {
      kept = -after.margin_for_side_to_move();
    } else {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(int64_t(limit_ms * 1000));
      if (const std::optional<ExactAnswer> reply = solver.solve(after, false, 0, deadline)) kept = -reply->value;
    }
    const size_t b = bucket_of(pos.mushrooms_left());
    if (kept) {
      const int lost = *run.values[i] - *kept;
      ++measured[b];
      lossy[b] += lost > 0;
      cells[b] += lost;
      worst[b] = std::max(worst[b], lost);
    } else {
      ++unsolved[b];
    }
    if (++done % 25 == 0 || done == total) std::fprintf(stderr, "bench endgame regret: %zu/%zu positions\n", done, total);
  }
  std::printf("regret: %s at %s ms a move, on the positions proved\n%-8s %8s %10s %10s %11s %9s\n", agent_spec.c_str(),
              format_fixed(move_ms, 0).c_str(), "left", "measured", "lost_cells", "moves_lost", "mean_cells", "max_cells");
  for (size_t b = 0; b < n_buckets; ++b)
    std::printf("%-8s %8d %10d %10d %11.3f %9d%s\n", kBuckets[b].name, measured[b], cells[b], lossy[b],
                measured[b] ? double(cells[b]) / measured[b] : 0.0, worst[b],
                unsolved[b] ? ("  (" + std::to_string(unsolved[b]) + " not proved after the move)").c_str() : "");
}

}  // namespace

int cmd_bench_endgame(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom bench endgame",
      "How far the exact endgame search reaches: solves every position (one per file, in the position text "
      "format, mushroom/position_io.h, which may give the side to move) under a time limit each, one core, and "
      "prints, by bucket of mushrooms left, the positions, the fraction proved and the median time (a position "
      "not proved counts at the limit). The last line is exactly proved_105_119=<fraction> "
      "proved_120_134=<fraction> median_ms=<float>, the median over every position (an empty bucket's fraction "
      "is 0), for the solver chosen by --solver.");
  opts.add_options()("positions", "position files (repeatable; or several after the option's first)",
                     cxxopts::value<std::vector<std::string>>())(
      "ms", "time limit per position in milliseconds", cxxopts::value<double>()->default_value("1000"))(
      "tt-bits", "the transposition table holds 2^N entries of 16 bytes", cxxopts::value<int>()->default_value("22"))(
      "wdl", "prove only win, draw or loss")(
      "solver", "endgame (the dedicated solver) | alphabeta (alpha-beta's exact mode)",
      cxxopts::value<std::string>()->default_value("endgame"))(
      "ordering-min-left", "dedicated solver: order by the two-move estimate at nodes with at least this many "
                           "mushrooms left (171: never)", cxxopts::value<int>()->default_value(std::to_string(EndgameConfig{}.ordering_min_left)))(
      "etc", "dedicated solver: enhanced transposition cutoffs (1 on, 0 off)",
      cxxopts::value<int>()->default_value(EndgameConfig{}.etc ? "1" : "0"))(
      "random", "also solve N random endgames (random and greedy moves on seeded boards, stopped at --max-left "
                "mushrooms left): with --reference, the correctness check at scale", cxxopts::value<int>()->default_value("0"))(
      "max-left", "random endgames: at most this many mushrooms left", cxxopts::value<int>()->default_value("60"))(
      "seed", "random endgames: their seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "regret", "also play the bot's own search (--agent) at --regret-ms a move on every position proved, and "
                "print by bucket the cells its move gives away against the proven margin")(
      "agent", "--regret's bot, NAME[:key=value,...] (default: the contest bot, alphabeta:eval=models/eval.bin,probcut=models/eval.probcut)",
      cxxopts::value<std::string>())(
      "regret-ms", "--regret's search time a move", cxxopts::value<double>()->default_value("300"))(
      "reference", "also time alpha-beta's exact mode in the same run, print its table first, and check that the "
                   "two agree on every position both prove (a mismatch is printed, and the exit status is 1)")(
      "selective", "also run the dedicated solver's selective mode with this ProbCut fit (its `exact` pairs, "
                   "`mushroom probcut-fit --exact-max-left`): its reach, and how often its answer differs from the "
                   "exact one", cxxopts::value<std::string>())(
      "eval", "--selective's evaluation, the one the fit was made with", cxxopts::value<std::string>())(
      "sigmas", "--selective cuts when the prediction lies this many spreads beyond the window",
      cxxopts::value<double>()->default_value(format_fixed(SelectiveEndgame{}.sigmas, 2)))(
      "selective-min-left", "--selective tries nodes with at least this many mushrooms left",
      cxxopts::value<int>()->default_value(std::to_string(SelectiveEndgame{}.min_left)))("h,help", "show this help");
  add_json_option(opts, "the figures");
  opts.parse_positional({"positions"});
  opts.positional_help("[FILE...]");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  BenchReport report(args, "endgame");
  const int random = args["random"].as<int>();
  if (!args.count("positions") && random == 0) throw std::invalid_argument("give --positions FILE... or --random N");
  if (random < 0) throw std::invalid_argument("--random must be 0 or more");
  if (args["max-left"].as<int>() < 1 || args["max-left"].as<int>() > kCells)
    throw std::invalid_argument("--max-left must be in 1..170");
  const double ms = args["ms"].as<double>();
  const int tt_bits = args["tt-bits"].as<int>();
  if (!(ms > 0)) throw std::invalid_argument("--ms must be above 0");
  if (tt_bits < 10 || tt_bits > 30) throw std::invalid_argument("--tt-bits must be in 10..30");
  const bool wdl = args.count("wdl") > 0;
  std::vector<Position> positions;
  std::vector<std::string> paths;
  if (args.count("positions")) paths = args["positions"].as<std::vector<std::string>>();
  for (const std::string& path : paths) positions.push_back(load_position_file(path));  // a bad file is named first
  const uint64_t seed = args["seed"].as<uint64_t>();
  int drawn = 0;
  for (const Position& pos : endgame_positions(random, seed, args["max-left"].as<int>())) {
    paths.push_back("random endgame " + std::to_string(++drawn) + " of seed " + std::to_string(seed));
    positions.push_back(pos);
  }

  const ExactSolverKind kind = parse_exact_solver_kind(args["solver"].as<std::string>());
  const bool reference = args.count("reference") > 0;
  const std::string mode = std::string(wdl ? "win/draw/loss" : "exact margin") + ", " + format_fixed(ms, 0) +
                           " ms a position, 2^" + std::to_string(tt_bits) + " table";
  EndgameConfig endgame;
  endgame.ordering_min_left = args["ordering-min-left"].as<int>();
  if (endgame.ordering_min_left < 0 || endgame.ordering_min_left > kCells + 1)
    throw std::invalid_argument("--ordering-min-left must be in 0..171");
  const int etc = args["etc"].as<int>();
  if (etc != 0 && etc != 1) throw std::invalid_argument("--etc must be 0 or 1");
  endgame.etc = etc == 1;
  // --regret's options are checked before any solving.
  const bool regret = args.count("regret") > 0;
  const double regret_ms = args["regret-ms"].as<double>();
  const std::string agent = args.count("agent") ? args["agent"].as<std::string>() : format_agent_spec(contest_bot_spec());
  AgentSpec regret_spec;
  AgentOptions regret_options;
  if (regret) {
    if (wdl) throw std::invalid_argument("--regret needs the exact margins: leave out --wdl");
    if (!(regret_ms > 0)) throw std::invalid_argument("--regret-ms must be above 0");
    regret_spec = parse_agent_spec(agent);
    regret_options.values = regret_spec.options;
    regret_options.values["move_ms"] = std::to_string(regret_ms);
    make_agent(regret_spec.name, regret_options);  // names a bad agent or option, or one that takes no move_ms
  }
  // --selective's fit, evaluation and settings are checked before any solving.
  const bool selective = args.count("selective") > 0;
  std::unique_ptr<ProbCutFit> fit;
  std::unique_ptr<nnue::Evaluator> shallow_eval;
  std::unique_ptr<AlphaBeta> shallow;
  SelectiveEndgame selective_settings;
  if (selective) {
    if (kind != ExactSolverKind::kEndgame) throw std::invalid_argument("--selective is a mode of --solver endgame");
    const std::string fit_path = args["selective"].as<std::string>();
    const std::string eval = args.count("eval") ? args["eval"].as<std::string>() : default_eval_path();
    fit = std::make_unique<ProbCutFit>(read_probcut_fit(fit_path));
    // One read: the fit is checked against the same bytes the search then uses.
    const std::string eval_bytes = nnue::read_network_bytes(eval);
    check_probcut_evaluation(*fit, probcut_evaluation_of_bytes(eval_bytes), fit_path);
    bool has_exact = false;
    for (const auto& [band, pair] : fit->entries()) has_exact |= pair.depth == ProbCutFit::kExactDepth;
    if (!has_exact)
      throw std::invalid_argument("--selective " + fit_path + " has no `exact` pairs (fit it with --exact-max-left)");
    shallow_eval = std::make_unique<nnue::Evaluator>(nnue::parse_network(eval_bytes, eval));
    AlphaBetaConfig shallow_config = playing_search_config();
    shallow_config.tt_bits = 18;
    shallow = std::make_unique<AlphaBeta>(shallow_config, shallow_eval.get());
    selective_settings = {fit.get(), shallow.get(), args["sigmas"].as<double>(), args["selective-min-left"].as<int>()};
    EndgameSolver(EndgameConfig{.tt_bits = 10}).set_selective(selective_settings);  // names a setting out of range
  }
  const Run run = run_solver(kind, positions, ms, tt_bits, wdl, endgame);
  int mismatches = 0;
  if (reference) {
    const Run plain = run_solver(ExactSolverKind::kAlphaBeta, positions, ms, tt_bits, wdl);
    print_table(("reference: alphabeta (" + mode + ")").c_str(), positions, plain);
    int both = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      if (!run.values[i] || !plain.values[i]) continue;
      ++both;
      if (*run.values[i] != *plain.values[i]) {
        ++mismatches;
        std::printf("MISMATCH %s: %s %d, alphabeta %d, in this position:\n%s\n", paths[i].c_str(),
                    exact_solver_name(kind), *run.values[i], *plain.values[i], format_position(positions[i], true).c_str());
      }
    }
    std::printf("agreement: %d of %d positions that both proved\n\n", both - mismatches, both);
  }
  if (regret) {
    ExactSolver solver(kind, tt_bits, endgame);
    print_regret(agent, regret_spec.name, regret_options, regret_ms, positions, run, solver, ms);
    std::printf("\n");
  }
  if (selective) {
    EndgameSearchStats totals;
    const Run estimates = run_selective(positions, ms, tt_bits, wdl, endgame, selective_settings, totals);
    print_table(("selective endgame (sigmas " + format_fixed(selective_settings.sigmas, 2) + ", from " +
                 std::to_string(selective_settings.min_left) + " left; answered, not proved)").c_str(),
                positions, estimates);
    std::printf("selective cuts %llu, shallow-search nodes %llu\n", static_cast<unsigned long long>(totals.selective_cuts),
                static_cast<unsigned long long>(totals.shallow_nodes));
    print_agreement(run, estimates);
    std::printf("\n");
  }
  const std::vector<double> fractions = print_table((std::string(exact_solver_name(kind)) + " (" + mode + ")").c_str(), positions, run);
  std::printf("proved_105_119=%.3f proved_120_134=%.3f median_ms=%.1f\n", fractions[2], fractions[3], median(run.ms));
  report.setting("solver", exact_solver_name(kind));
  report.setting("mode", mode);
  report.setting("ms", ms);
  report.setting("positions", positions.size());
  for (size_t b = 0; b < fractions.size(); ++b) report.row("buckets", {{"left", kBuckets[b].name}, {"proved", fractions[b]}});
  report.figure("proved_105_119", fractions[2]);
  report.figure("proved_120_134", fractions[3]);
  report.figure("median_ms", median(run.ms));
  if (reference) report.figure("mismatches", mismatches);
  report.write();
  return mismatches ? 1 : 0;
}

}  // namespace mushroom::cli
