// The alphabeta agent's selective root solver (issue 85): where the exact
// attempt is out of its range, the endgame solver's selective mode answers
// and its move is played, reported as an estimate and never as proved; an
// attempt that does not answer leaves the move to the heuristic search; the
// options are refused by name where the mode cannot run. Budgets are node
// counts: move_ms is far beyond what any attempt here takes.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "agents/search_agents.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "endgame/endgame_solver.h"
#include "mushroom/movegen.h"
#include "mushroom/position_io.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "util/settings.h"

namespace mushroom {
namespace {

const char* const kEval = "models/eval.bin";
const char* const kFit = "models/eval.probcut";
// Solver nodes (the shallow searches' not counted) for every attempt here.
constexpr uint64_t kNodes = 300'000;

AlphaBetaAgentConfig agent_config(std::vector<std::pair<std::string, std::string>> extra) {
  std::vector<std::pair<std::string, std::string>> values{
      {"eval", kEval}, {"probcut", kFit}, {"depth", "2"}, {"move_ms", "600000"}};
  values.insert(values.end(), extra.begin(), extra.end());
  OptionSource opts("agent 'alphabeta'", values);
  AlphaBetaAgentConfig config = read_alphabeta_options(opts);
  EXPECT_FALSE(opts.unread().has_value());
  config.selective_root.node_limit = kNodes;
  return config;
}

// The endgame set's files with lo to hi mushrooms left, by name.
std::vector<std::string> endgame_files(int lo, int hi) {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator("bench/endgame/positions")) paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    const int left = load_position_file(path).mushrooms_left();
    if (left >= lo && left <= hi) out.push_back(path);
  }
  return out;
}

std::vector<Position> endgames(int lo, int hi) {
  std::vector<Position> out;
  for (const std::string& path : endgame_files(lo, hi)) out.push_back(load_position_file(path));
  return out;
}

// The selective mode as the agent sets it up, on a fresh solver: its answer
// within `nodes`, if any (shallow_nodes: its shallow searches' nodes).
std::optional<EndgameProof> selective_answer(const Position& pos, uint64_t nodes, uint64_t* shallow_nodes = nullptr) {
  nnue::Evaluator evaluator(nnue::read_network(kEval));
  AlphaBetaConfig shallow_config = playing_search_config();
  shallow_config.tt_bits = 18;
  AlphaBeta shallow(shallow_config, &evaluator);
  const ProbCutFit fit = read_probcut_fit(kFit);
  EndgameSolver solver(EndgameConfig{.tt_bits = 22});
  solver.set_selective({&fit, &shallow, 1.5, 80});
  std::optional<EndgameProof> answer = solver.solve(pos, {nodes, std::nullopt});
  if (shallow_nodes) *shallow_nodes = solver.stats().shallow_nodes;
  return answer;
}

// A position of 90-119 left (where games between strong bots are decided)
// on which the exact root attempt is out of range and the exact solver
// does not finish within kReachNodes, and the selective mode answers
// within them: the first such in the endgame set by file name (a scan of
// the set in order found it; the scan took 100 s on the loaded
// machine). Nothing when it no longer is such a position.
constexpr uint64_t kReachNodes = 1'000'000;
const char* const kSelectiveOnly = "bench/endgame/positions/eval-vs-eval-game-0008-ply-25.txt";
std::optional<Position> selective_only_position() {
  const Position pos = load_position_file(kSelectiveOnly);
  MoveList list;
  if (pos.mushrooms_left() < 90 || pos.mushrooms_left() > 119) return std::nullopt;
  if (generate_moves(pos, list) <= 16) return std::nullopt;  // the exact attempt's range (solver_moves)
  EndgameSolver exact(EndgameConfig{.tt_bits = 22});
  if (exact.solve(pos, {kReachNodes, std::nullopt})) return std::nullopt;
  return pos;
}

TEST(SelectiveRoot, AnswersWhereTheExactSolverCannotAndPlaysItsMove) {
  const std::optional<Position> found = selective_only_position();
  ASSERT_TRUE(found.has_value()) << kSelectiveOnly
                                 << " is no longer out of the exact solver's reach: the test shows nothing";
  const Position& pos = *found;
  const std::optional<EndgameProof> expected = selective_answer(pos, kReachNodes);
  ASSERT_TRUE(expected.has_value()) << kSelectiveOnly << " is no longer within the selective mode's reach";

  // Exactly the position's mushrooms left: the limit is inclusive.
  AlphaBetaAgentConfig config = agent_config({{"solver_selective_left", std::to_string(pos.mushrooms_left())}});
  config.selective_root.node_limit = kReachNodes;
  AlphaBetaAgent agent(config);
  agent.new_game(pos, pos.to_move());
  const Move move = agent.choose_move(pos, Clock{});
  EXPECT_TRUE(pos.is_legal(move)) << pos.mushrooms_left() << " left";
  ASSERT_TRUE(agent.last_report().has_value());
  const SearchReport report = *agent.last_report();
  EXPECT_TRUE(report.selective) << "the move did not come from the selective solve";
  EXPECT_FALSE(report.proved) << "an estimate reported as a proof";
  EXPECT_EQ(report.depth, 0);
  EXPECT_EQ(report.best, move);
  // The selective solve's own answer, on a fresh solver of the same settings.
  EXPECT_EQ(report.best, expected->best);
  EXPECT_EQ(report.cells, double(expected->margin));
  EXPECT_EQ(report.nodes, expected->nodes);

  // One mushroom fewer than the position has: not tried, the search plays.
  AlphaBetaAgentConfig below_config = agent_config({{"solver_selective_left", std::to_string(pos.mushrooms_left() - 1)}});
  below_config.selective_root.node_limit = kReachNodes;  // would answer, as above
  AlphaBetaAgent below(below_config);
  below.new_game(pos, pos.to_move());
  EXPECT_TRUE(pos.is_legal(below.choose_move(pos, Clock{})));
  ASSERT_TRUE(below.last_report().has_value());
  EXPECT_FALSE(below.last_report()->selective);
  EXPECT_EQ(below.last_report()->depth, 2);
}

// An attempt that does not answer within its nodes leaves the move to the
// heuristic search, which searches it as it would have without the attempt.
// At 100-119 left the fit has `exact` pairs, so the attempt runs shallow
// searches before it gives up: a table or search they shared with the
// move's search would change its tree.
TEST(SelectiveRoot, AFailedAttemptLeavesTheMoveToTheSearch) {
  constexpr uint64_t kStarvedNodes = 2'000;
  std::optional<Position> found;
  for (const Position& pos : endgames(100, 119)) {
    uint64_t shallow_nodes = 0;
    if (!selective_answer(pos, kStarvedNodes, &shallow_nodes) && shallow_nodes > 0) {
      found = pos;
      break;
    }
  }
  ASSERT_TRUE(found.has_value())
      << "no endgame of 100-119 left where the attempt fails after shallow searches: the test shows nothing";
  const Position& pos = *found;
  AlphaBetaAgentConfig starved = agent_config({{"solver_selective_left", "170"}});
  starved.selective_root.node_limit = kStarvedNodes;
  AlphaBetaAgent agent(starved);
  agent.new_game(pos, pos.to_move());
  const Move move = agent.choose_move(pos, Clock{});
  EXPECT_TRUE(pos.is_legal(move));
  ASSERT_TRUE(agent.last_report().has_value());
  EXPECT_FALSE(agent.last_report()->selective);
  EXPECT_FALSE(agent.last_report()->proved);
  EXPECT_EQ(agent.last_report()->depth, 2);

  AlphaBetaAgent off(agent_config({}));
  off.new_game(pos, pos.to_move());
  EXPECT_EQ(off.choose_move(pos, Clock{}), move);
  EXPECT_EQ(off.last_report()->nodes, agent.last_report()->nodes) << "the failed attempt changed the search's tree";
}

// A loss the exact attempt proved with wdl stays the heuristic search's
// (it plays for the opponent's mistakes), as without the selective mode:
// the mode runs only where the exact attempt did not answer.
TEST(SelectiveRoot, ALossTheExactAttemptProvedStaysTheSearchs) {
  std::optional<Position> lost;
  for (const Position& pos : endgames(75, 89)) {
    EndgameSolver exact(EndgameConfig{.tt_bits = 20});
    const std::optional<EndgameProof> wdl = exact.solve_wdl(pos, {kNodes, std::nullopt});
    if (wdl && wdl->margin < 0) {
      lost = pos;
      break;
    }
  }
  ASSERT_TRUE(lost.has_value()) << "no lost endgame of 75-89 left proved within the nodes: the test shows nothing";
  // Else the search's move would show nothing: the mode would not have answered anyway.
  ASSERT_TRUE(selective_answer(*lost, kNodes).has_value())
      << "the selective mode does not answer on the lost endgame within its nodes: the test shows nothing";
  AlphaBetaAgent agent(
      agent_config({{"solver_selective_left", "170"}, {"wdl", "1"}, {"solver_moves", "64"}, {"exact", "endgame"}}));
  agent.new_game(*lost, lost->to_move());
  EXPECT_TRUE(lost->is_legal(agent.choose_move(*lost, Clock{})));
  ASSERT_TRUE(agent.last_report().has_value());
  EXPECT_FALSE(agent.last_report()->selective) << "the selective mode overrode a proven loss";
  EXPECT_EQ(agent.last_report()->depth, 2);
}

// The options' ranges, and a mode that cannot run, are refused by name.
TEST(SelectiveRoot, OptionsThatCannotRunAreRefusedByName) {
  const auto refusal = [](std::vector<std::pair<std::string, std::string>> values,
                          std::shared_ptr<const ProbCutFit> fit = nullptr) -> std::string {
    try {
      OptionSource opts("agent 'alphabeta'", values);
      AlphaBetaAgentConfig config = read_alphabeta_options(opts);
      config.probcut_fit = fit;
      AlphaBetaAgent agent(config);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  const auto names = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  };
  EXPECT_PRED2(names, refusal({{"solver_selective_left", "171"}}), "solver_selective_left=171");
  EXPECT_PRED2(names, refusal({{"solver_selective_left", "-1"}}), "solver_selective_left=-1");
  EXPECT_PRED2(names, refusal({{"solver_selective_share", "0"}}), "solver_selective_share=0");
  EXPECT_PRED2(names, refusal({{"solver_selective_share", "3.5"}}), "solver_selective_share=3.5");
  EXPECT_PRED2(names, refusal({{"solver_selective_sigmas", "9"}}), "solver_selective_sigmas=9");
  // Without a fit, the mode has nothing to cut with.
  const std::string no_fit = refusal({{"solver_selective_left", "110"}});
  EXPECT_PRED2(names, no_fit, "solver_selective_left=110");
  EXPECT_PRED2(names, no_fit, "probcut=FIT");
  // Without the root solver, it has no place to run.
  EXPECT_PRED2(names, refusal({{"solver_selective_left", "110"}, {"solver", "0"}, {"eval", kEval}, {"probcut", kFit}}),
               "needs solver on");
  // A fit without `exact` pairs (only the heuristic search's).
  auto heuristic_only = std::make_shared<ProbCutFit>();
  heuristic_only->set(5, ProbCutPair{4, 2, 1.0, 0.0, 20.0, 100, 0.9});
  EXPECT_PRED2(names, refusal({{"solver_selective_left", "110"}}, heuristic_only), "no `exact` pairs");
  // Off, the same settings are taken without a fit.
  EXPECT_EQ(refusal({{"solver_selective_left", "0"}, {"solver_selective_share", "1"}}), "accepted");
  EXPECT_EQ(refusal({{"solver_selective_left", "110"}, {"eval", kEval}, {"probcut", kFit}}), "accepted");
}

}  // namespace
}  // namespace mushroom
