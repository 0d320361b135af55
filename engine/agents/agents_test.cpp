#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "agents/agent_spec.h"
#include "agents/greedy_agent.h"
#include "agents/local_match.h"
#include "agents/random_agent.h"
#include "agents/search_agents.h"
#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "mushroom/board_gen.h"
#include "mushroom/playout_positions.h"
#include "mushroom/reference_movegen.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"

namespace mushroom {
namespace {

// NAME[:key=value,...], the one spelling of an agent on every command.
TEST(AgentSpec, ParsesNameAndOptionsAndFormatsThemBack) {
  const AgentSpec bare = parse_agent_spec("greedy");
  EXPECT_EQ(bare.name, "greedy");
  EXPECT_TRUE(bare.options.empty());
  const AgentSpec full = parse_agent_spec("alphabeta:depth=4,eval=runs/a:b/eval.bin,solver=false");
  EXPECT_EQ(full.name, "alphabeta");
  const std::map<std::string, std::string> expected{
      {"depth", "4"}, {"eval", "runs/a:b/eval.bin"}, {"solver", "false"}};  // a ':' in a value is kept
  EXPECT_EQ(full.options, expected);
  EXPECT_EQ(format_agent_spec(full), "alphabeta:depth=4,eval=runs/a:b/eval.bin,solver=false");
  EXPECT_EQ(parse_agent_spec(format_agent_spec(full)).options, full.options);
  EXPECT_EQ(parse_agent_spec("nn:model=").options.at("model"), "");  // an empty value is a value
}

TEST(AgentSpec, MalformedSpecsAreNamed) {
  const struct {
    const char* spec;
    const char* message;
  } cases[] = {
      {"", "has no name"},
      {":depth=3", "has no name"},
      {"alphabeta:depth", "agent option 'depth' in 'alphabeta:depth' is not key=value"},
      {"alphabeta:=3", "agent option '=3'"},
      {"alphabeta:depth=3,", "agent option '' in 'alphabeta:depth=3,'"},
      {"alphabeta:", "agent option '' in 'alphabeta:'"},
  };
  for (const auto& c : cases) {
    try {
      parse_agent_spec(c.spec);
      ADD_FAILURE() << "accepted '" << c.spec << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << c.spec << ": " << e.what();
    }
  }
}

// Sets an environment variable for one scope, and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The contest bot plays the shipped evaluation with its shipped fit; a fit
// belongs to one evaluation, so another evaluation named alone plays
// without one, and MUSHROOM_PROBCUT names a fit or turns it off.
TEST(ContestBot, TheShippedFitGoesOnlyWithTheShippedEvaluation) {
  const ScopedEnv no_eval("MUSHROOM_EVAL", nullptr);
  {
    const ScopedEnv no_fit("MUSHROOM_PROBCUT", nullptr);
    const AgentSpec spec = contest_bot_spec();
    EXPECT_EQ(spec.name, "alphabeta");
    ASSERT_EQ(spec.options.count("eval"), 1u);
    ASSERT_EQ(spec.options.count("probcut"), 1u);
    EXPECT_TRUE(spec.options.at("eval").ends_with("models/eval.bin")) << spec.options.at("eval");
    EXPECT_TRUE(spec.options.at("probcut").ends_with("models/eval.probcut")) << spec.options.at("probcut");
    AgentOptions options;
    options.values = spec.options;
    EXPECT_NO_THROW(make_agent(spec.name, options)) << "the shipped fit is made with the shipped evaluation";
  }
  {
    const ScopedEnv off("MUSHROOM_PROBCUT", "none");
    EXPECT_EQ(contest_bot_spec().options.count("probcut"), 0u);
  }
  {
    const ScopedEnv fit("MUSHROOM_PROBCUT", "my.probcut");
    EXPECT_EQ(contest_bot_spec().options.at("probcut"), "my.probcut");
  }
  {
    const ScopedEnv other("MUSHROOM_EVAL", "models/eval-2h-playing-gen1.bin");
    const ScopedEnv no_fit("MUSHROOM_PROBCUT", nullptr);
    const AgentSpec spec = contest_bot_spec();
    EXPECT_EQ(spec.options.at("eval"), "models/eval-2h-playing-gen1.bin");
    EXPECT_EQ(spec.options.count("probcut"), 0u) << "models/eval.probcut was not made with it";
    // Named together anyway, the pair is refused, naming both evaluations.
    AgentOptions options;
    options.values = spec.options;
    options.values["probcut"] = "models/eval.probcut";
    try {
      make_agent(spec.name, options);
      ADD_FAILURE() << "a fit made with another evaluation was accepted";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("models/eval.probcut"), std::string::npos) << e.what();
    }
  }
}

// The fit is played, not only named: the alphabeta agent built from its
// options searches, at a fixed depth, exactly the tree of alpha-beta given
// the fit (set_probcut) and another without it, and the contest bot's
// agent is the one with it. Middle-game positions, where the shipped fit
// has pairs (60-119 mushrooms left).
TEST(ContestBot, PlaysTheTreeOfItsFit) {
  const ScopedEnv no_eval("MUSHROOM_EVAL", nullptr);
  const ScopedEnv no_fit("MUSHROOM_PROBCUT", nullptr);
  const AgentSpec bot = contest_bot_spec();
  ASSERT_EQ(bot.options.count("probcut"), 1u);
  const ProbCutFit fit = read_probcut_fit(bot.options.at("probcut"));
  nnue::Evaluator evaluator(nnue::read_network(bot.options.at("eval")));
  constexpr int kDepth = 5;
  const auto agent_nodes = [&](std::map<std::string, std::string> options, const Position& pos) {
    options["depth"] = std::to_string(kDepth);
    options["solver"] = "0";
    AgentOptions opts;
    opts.values = options;
    const std::unique_ptr<Agent> agent = make_agent(bot.name, opts);
    agent->new_game(pos, pos.to_move());
    agent->choose_move(pos, Clock{});
    EXPECT_TRUE(agent->last_report().has_value());
    return agent->last_report() ? agent->last_report()->nodes : 0;
  };
  const auto search_nodes = [&](const ProbCutFit* with, const Position& pos) {
    AlphaBeta search(playing_search_config(), &evaluator);
    search.set_probcut(with);
    return search.search(pos, AlphaBeta::Clock::now() + std::chrono::hours(1), kDepth).nodes;
  };
  int searched = 0, differ = 0;
  for (const Position& pos : playout_positions(400, 7)) {
    MoveList list;
    if (pos.mushrooms_left() < 75 || pos.mushrooms_left() > 110 || generate_moves(pos, list) < 15) continue;
    std::map<std::string, std::string> without = bot.options;
    without.erase("probcut");
    const uint64_t with_fit = search_nodes(&fit, pos), plain = search_nodes(nullptr, pos);
    EXPECT_EQ(agent_nodes(bot.options, pos), with_fit) << "the contest bot's agent, at " << pos.mushrooms_left() << " left";
    EXPECT_EQ(agent_nodes(without, pos), plain) << "without the fit, at " << pos.mushrooms_left() << " left";
    differ += with_fit != plain;
    if (++searched == 3) break;
  }
  EXPECT_EQ(searched, 3);
  EXPECT_EQ(differ, 3) << "the fit changes no tree here: the test shows nothing";
}

TEST(Greedy, TakesLargestAreaWithFirstInOrderOnTies) {
  for (const Position& p : playout_positions(500, 21)) {
    const std::vector<Move> all = generate_moves_naive(p);  // (r1,c1,r2,c2) order
    Move expected = Move::pass();
    for (const Move& m : all)
      if (m.area() > expected.area()) expected = m;  // strict: first of the largest
    EXPECT_EQ(greedy_move(p), expected);
  }
}

TEST(Greedy, PassesOnlyWithoutMoves) {
  Position empty;
  EXPECT_TRUE(greedy_move(empty).is_pass());
  Position p;
  p.set_digit(4, 4, 3);
  p.set_digit(4, 6, 7);
  EXPECT_EQ(greedy_move(p), Move::rect(4, 4, 4, 6));
}

TEST(RandomAgent, PlaysLegalMovesAndIsSeeded) {
  RandomAgent a(5), b(5);
  const Position p = random_board(8);
  for (int i = 0; i < 20; ++i) {
    const Move m = a.choose_move(p, {});
    EXPECT_TRUE(p.is_legal(m));
    EXPECT_FALSE(m.is_pass());
    EXPECT_EQ(m, b.choose_move(p, {}));
  }
}

TEST(LocalMatch, GreedyBeatsRandomAndGamesEndProperly) {
  int greedy_wins = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    GreedyAgent greedy;
    RandomAgent random(seed);
    const Position start = random_board(seed);
    const bool greedy_first = seed % 2 == 0;
    auto result = greedy_first ? play_local_game(greedy, random, start) : play_local_game(random, greedy, start);
    EXPECT_TRUE(result.forfeit.empty());
    EXPECT_TRUE(result.final.game_over());
    EXPECT_TRUE(result.moves.back().move.is_pass());
    greedy_wins += result.outcome() == (greedy_first ? 1 : -1);
  }
  EXPECT_GE(greedy_wins, 8);
}

// Positions late enough (at most 9 rectangles) for the exact solver.
std::vector<Position> late_positions(int count, uint64_t seed) {
  std::vector<Position> out;
  for (Position p : playout_positions(count * 4, seed)) {
    MoveList list;
    while (!p.game_over() && generate_moves(p, list) > 9) p.apply(greedy_move(list));
    if (!p.game_over() && generate_moves(p, list) > 0) out.push_back(p);
    if (int(out.size()) == count) break;
  }
  return out;
}

TEST(SearchAgents, WdlRootSolverKeepsEveryProvenWinAndDraw) {
  AlphaBeta oracle;
  int kept = 0;
  for (const std::string spec : {"alphabeta", "mcts", "alphabeta:exact=endgame", "mcts:exact=endgame"}) {
    const std::string name = spec.substr(0, spec.find(':'));
    AgentOptions opts;
    opts.values["wdl"] = "1";
    opts.values["solver_share"] = "1";
    if (spec.find("endgame") != std::string::npos) opts.values["exact"] = "endgame";
    for (const Position& pos : late_positions(12, 53)) {
      const auto value = oracle.solve_exact(pos, 0);
      ASSERT_TRUE(value.has_value());
      if (*value < 0) continue;
      auto agent = make_agent(name, opts);
      agent->new_game(pos, pos.to_move());
      Position after = pos;
      after.apply(agent->choose_move(pos, Clock{}));
      const auto reply = oracle.solve_exact(after, 0);
      ASSERT_TRUE(reply.has_value());
      EXPECT_EQ(-*reply > 0, *value > 0) << spec << " gave up a proven " << (*value > 0 ? "win" : "draw");
      EXPECT_GE(-*reply, 0) << spec;
      ++kept;
    }
  }
  EXPECT_GE(kept, 16);
}

// The bank share lets the root solver prove endgames that a move's own
// budget cannot; it applies only from solver_bank_moves rectangles on.
TEST(SearchAgents, TheSolverBankProvesEndgamesTheMoveBudgetCannot) {
  AlphaBeta oracle;
  for (const ExactSolverKind kind : {ExactSolverKind::kAlphaBeta, ExactSolverKind::kEndgame}) {
  SCOPED_TRACE(exact_solver_name(kind));
  int hard = 0;
  for (const Position& pos : late_positions(40, 71)) {
    if (hard == 4) break;
    // Easy positions, which any budget proves (the limits are checked every
    // 1,024 nodes), are left out.
    ExactSolver unlimited(kind, 20);
    if (unlimited.solve(pos, false, 0, std::nullopt)->nodes < 1100) continue;
    const auto value = oracle.solve_exact(pos, 0);
    ASSERT_TRUE(value.has_value());
    MoveList list;
    const int rectangles = generate_moves(pos, list);
    const double soft_ms = 0.01, bank_ms = 20000;  // a move budget of 5 nodes; a bank share of 10 s
    RootSolverConfig config{rectangles, 0.25};
    ExactSolver solver(kind, 20);
    Move best;
    int failed_at = 1 << 30;
    EXPECT_FALSE(solve_root(solver, pos, rectangles, config, soft_ms, bank_ms, best, failed_at));
    EXPECT_EQ(failed_at, rectangles);

    config.bank_share = 0.5;
    config.bank_max_rectangles = rectangles - 1;  // not yet this close to the end
    failed_at = 1 << 30;
    solver.clear();
    EXPECT_FALSE(solve_root(solver, pos, rectangles, config, soft_ms, bank_ms, best, failed_at));

    config.bank_max_rectangles = rectangles;
    failed_at = 1 << 30;
    solver.clear();
    ASSERT_TRUE(solve_root(solver, pos, rectangles, config, soft_ms, bank_ms, best, failed_at));
    Position after = pos;
    after.apply(best);
    const auto reply = oracle.solve_exact(after, 0);
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ(-*reply, *value) << "the proven move must keep the exact margin";
    ++hard;
  }
  EXPECT_GE(hard, 3);
  }
}

TEST(AgentFactory, RejectsUnknownNamesAndOptions) {
  EXPECT_EQ(make_agent("greedy", {})->name(), "greedy");
  EXPECT_THROW(make_agent("nope", {}), std::invalid_argument);
  AgentOptions opts;
  opts.values["depth"] = "3";
  EXPECT_THROW(make_agent("random", opts), std::invalid_argument);
  AgentOptions wdl;
  wdl.values["wdl"] = "maybe";
  EXPECT_THROW(make_agent("alphabeta", wdl), std::invalid_argument);
}

// The switches retired in issues 70 and 72 are unknown options now, refused
// by name (their measurements are in docs/history/rejected.md); the
// options that stay are still taken.
TEST(AgentFactory, RetiredSearchSwitchesAreRefusedByName) {
  for (const char* retired : {"history", "partial_root", "extend_moves", "contempt", "aspiration", "iir",
                              "pv_reduces_less", "reply_order", "late_moves"}) {
    AgentOptions opts;
    opts.values[retired] = "1";
    try {
      make_agent("alphabeta", opts);
      ADD_FAILURE() << retired << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("no option '") + retired + "'"), std::string::npos)
          << e.what();
    }
  }
  AgentOptions kept;
  kept.values["probcut_sigmas"] = "1.0";
  kept.values["qdepth"] = "2";
  EXPECT_EQ(make_agent("alphabeta", kept)->name(), "alphabeta");
}

// The time-plan options reach the agent's TimeConfig, and a value outside
// its range is refused by name.
TEST(AgentFactory, TimeOptionsReachThePlan) {
  OptionSource opts("agent 'alphabeta'",
                    {{"middle_boost", "1.6"}, {"middle_min", "110"}, {"middle_max", "150"}, {"end_mushrooms", "80"}});
  const AlphaBetaAgentConfig c = read_alphabeta_options(opts);
  EXPECT_DOUBLE_EQ(c.time.middle_boost, 1.6);
  EXPECT_EQ(c.time.middle_min, 110);
  EXPECT_EQ(c.time.middle_max, 150);
  EXPECT_EQ(c.time.end_mushrooms, 80);
  EXPECT_EQ(AlphaBetaAgentConfig{}.time.end_mushrooms, TimeConfig{}.end_mushrooms);
  OptionSource mcts("agent 'mcts'", {{"end_mushrooms", "70"}});
  EXPECT_EQ(read_mcts_search_options(mcts, 1).time.end_mushrooms, 70);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"end_mushrooms", "171"}, {"middle_boost", "0"}, {"middle_min", "-1"}, {"middle_max", "x"}}) {
    OptionSource bad("agent 'alphabeta'", {{key, value}});
    try {
      read_alphabeta_options(bad);
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

// The levers and the near-misses shipped by the margin rule (issue 99,
// bench/matches/levers-9902 and combo-9915) are the alphabeta agent's
// defaults, and its own options give back the agent before them, as
// docs/cli.md says; the plain search (the labels'), the policy-free MCTS
// agent and the time plan's own defaults keep theirs.
TEST(AgentFactory, TheShippedLeversAreTheAlphabetaDefaultsAndItsOptionsUndoThem) {
  const AlphaBetaAgentConfig shipped;
  EXPECT_EQ(shipped.root_solver.exact, "endgame");
  EXPECT_DOUBLE_EQ(shipped.root_solver.bank_share, 0.1);
  EXPECT_EQ(shipped.root_solver.bank_max_rectangles, 12);
  EXPECT_DOUBLE_EQ(shipped.time.middle_boost, 2.5);
  EXPECT_EQ(shipped.time.middle_min, 94);
  EXPECT_EQ(shipped.time.middle_max, 135);
  EXPECT_TRUE(shipped.search.quiescence_floor);
  EXPECT_DOUBLE_EQ(shipped.search.probcut_sigmas, 1.25);
  EXPECT_FALSE(AlphaBetaConfig{}.quiescence_floor);
  EXPECT_DOUBLE_EQ(AlphaBetaConfig{}.probcut_sigmas, 1.5);
  EXPECT_DOUBLE_EQ(RootSolverConfig{14}.bank_share, 0);
  const TimeConfig plan;
  EXPECT_DOUBLE_EQ(plan.middle_boost, 1.3);
  EXPECT_EQ(plan.middle_min, 85);
  EXPECT_EQ(plan.middle_max, 150);
  OptionSource mcts("agent 'mcts'", {});
  const MctsAgentConfig m = read_mcts_search_options(mcts, 1);
  EXPECT_EQ(m.root_solver.exact, "alphabeta");
  EXPECT_DOUBLE_EQ(m.root_solver.bank_share, 0);
  EXPECT_DOUBLE_EQ(m.time.middle_boost, 1.3);
  OptionSource before("agent 'alphabeta'", {{"exact", "alphabeta"},
                                            {"middle_boost", "1.3"},
                                            {"middle_min", "85"},
                                            {"middle_max", "150"},
                                            {"qfloor", "false"},
                                            {"solver_bank", "0"},
                                            {"probcut_sigmas", "1.5"}});
  const AlphaBetaAgentConfig undone = read_alphabeta_options(before);
  EXPECT_EQ(undone.root_solver.exact, "alphabeta");
  EXPECT_DOUBLE_EQ(undone.time.middle_boost, plan.middle_boost);
  EXPECT_EQ(undone.time.middle_min, plan.middle_min);
  EXPECT_EQ(undone.time.middle_max, plan.middle_max);
  EXPECT_FALSE(undone.search.quiescence_floor);
  EXPECT_DOUBLE_EQ(undone.root_solver.bank_share, 0);
  EXPECT_DOUBLE_EQ(undone.search.probcut_sigmas, 1.5);
  // Everything else as shipped.
  EXPECT_EQ(undone.root_solver.max_rectangles, shipped.root_solver.max_rectangles);
  EXPECT_EQ(undone.search.quiescence_depth, shipped.search.quiescence_depth);
  EXPECT_EQ(undone.search.quiescence_moves, shipped.search.quiescence_moves);
  EXPECT_EQ(undone.search.probcut_depth, shipped.search.probcut_depth);
  EXPECT_EQ(undone.root_solver.bank_max_rectangles, shipped.root_solver.bank_max_rectangles);
  EXPECT_EQ(undone.search.lmr_divisor, shipped.search.lmr_divisor);
}

// The alphabeta agent's `eval` option: a learned-evaluation file plays at
// the leaves (the hand-equivalent model plays the hand evaluation's moves),
// and a missing or corrupt file is an error naming it.
TEST(AgentFactory, AlphabetaTakesALearnedEvaluationFile) {
  const std::string path = (std::filesystem::temp_directory_path() / "agents_test_eval.bin").string();
  std::ofstream(path, std::ios::binary) << nnue::serialize_network(nnue::Network::hand_equivalent({16, 4, 4}));
  AgentOptions learned, hand;
  learned.values = {{"eval", path}, {"depth", "3"}, {"solver", "0"}};
  hand.values = {{"depth", "3"}, {"solver", "0"}};
  for (const Position& pos : playout_positions(6, 12)) {
    auto a = make_agent("alphabeta", learned), b = make_agent("alphabeta", hand);
    a->new_game(pos, pos.to_move());
    b->new_game(pos, pos.to_move());
    EXPECT_EQ(a->choose_move(pos, Clock{}), b->choose_move(pos, Clock{}));
  }
  std::ofstream(path, std::ios::binary) << "not weights";
  try {
    make_agent("alphabeta", learned);
    ADD_FAILURE() << "a corrupt file was accepted";
  } catch (const nnue::NetworkError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_THROW(make_agent("alphabeta", learned), nnue::NetworkError);
}

}  // namespace
}  // namespace mushroom
