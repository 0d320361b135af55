// The search agents' options, declared once (util/settings.h) with their
// defaults, ranges and help: the MCTS options (`mcts`, `nn`, the conv-net
// bot) and the `alphabeta` agent's. Apart from the agent factory so that
// the exported bot (export/), which reads the options it was exported with
// through these tables, carries them without the factory's registry.
#include "agents/search_agents.h"

namespace mushroom {

namespace {

#define FIELD(name) [](auto& c) -> auto& { return c.name; }

// solver_moves, solver_share, solver_bank, solver_bank_moves, wdl, exact: when and
// how the root solver runs.
template <class Config>
SettingsTable<Config>& add_root_solver_settings(SettingsTable<Config>& table) {
  return table
      .integer("solver_moves", FIELD(root_solver.max_rectangles), 0, 64, "the root solver starts at this few rectangles")
      .real("solver_share", FIELD(root_solver.share), 0, 1, "share of a move's budget the root solver may use")
      .real("solver_bank", FIELD(root_solver.bank_share), 0, 0.5,
            "or this share of the time bank, when more (the search's budget then starts after it)")
      .integer("solver_bank_moves", FIELD(root_solver.bank_max_rectangles), 0, 64,
               "solver_bank applies from this few rectangles")
      .flag("wdl", FIELD(root_solver.wdl), "the root solver proves only win, draw or loss, not the margin")
      .choice("exact", FIELD(root_solver.exact), {"alphabeta", "endgame"},
              "the root solver: alpha-beta's exact mode, or the dedicated endgame solver (engine/endgame/)");
}

// time_scale, tail, middle_boost, middle_min, middle_max, end_mushrooms: how a
// search agent plans its time (alphabeta/time_manager.h).
template <class Config>
SettingsTable<Config>& add_time_settings(SettingsTable<Config>& table) {
  return table.real("time_scale", FIELD(time_scale), 0.01, 10, "multiplies the planned time per move")
      .real("tail", FIELD(tail), 0, 20, "own moves at the end the solver proves (time planning, with solver)")
      .real("middle_boost", FIELD(time.middle_boost), 0.1, 10,
            "weight of a middle-game move's time (middle_min < mushrooms left < middle_max)")
      .integer("middle_min", FIELD(time.middle_min), 0, kCells, "the middle game ends at this many mushrooms left")
      .integer("middle_max", FIELD(time.middle_max), 0, kCells, "the middle game starts below this many mushrooms left")
      .integer("end_mushrooms", FIELD(time.end_mushrooms), 0, kCells - 10,
               "mushrooms expected to be left when the game ends (the plan spreads the bank over the moves before)");
}

}  // namespace

const SettingsTable<MctsAgentConfig>& mcts_search_settings() {
  static const SettingsTable<MctsAgentConfig> table = [] {
    SettingsTable<MctsAgentConfig> t("mcts-search");
    t.integer("sims", FIELD(simulations), 0, 10'000'000, "simulations per move (0: plan from the clock)")
        .flag("gumbel", FIELD(mcts.gumbel), "Gumbel root with sequential halving instead of PUCT")
        .integer("gumbel_k", FIELD(mcts.gumbel_k), 1, 1024, "root candidates of the Gumbel root")
        .real("cpuct", FIELD(mcts.c_puct), 0, 100, "PUCT exploration constant")
        .real("score_weight", FIELD(mcts.score_weight), 0, 10, "weight of the expected margin in the utility")
        .flag("solver", FIELD(solver), "exact endgames at the root and at leaves");
    add_time_settings(add_root_solver_settings(t));
    return t;
  }();
  return table;
}

const SettingsTable<AlphaBetaAgentConfig>& alphabeta_settings() {
  static const SettingsTable<AlphaBetaAgentConfig> table = [] {
    SettingsTable<AlphaBetaAgentConfig> t("alphabeta");
    t.integer("depth", FIELD(depth), 0, 64, "fixed depth (0: iterative deepening on the clock)")
        .real("move_ms", FIELD(move_ms), 0, 600'000,
              "search this many ms per move whatever the bank (0: plan from the bank; analyze --ms)")
        .flag("solver", FIELD(solver), "exact endgames at the root");
    add_root_solver_settings(t)
        .flag("lmr", FIELD(search.lmr), "late move reductions")
        .real("lmr_divisor", FIELD(search.lmr_divisor), 0, 10,
              "late-move reduction max(1, 0.5 + ln(depth) ln(move number) / this) plies (0: always one ply)")
        .flag("pvs", FIELD(search.pvs), "principal-variation search")
        .flag("killers", FIELD(search.killers), "killer moves in the ordering")
        .integer("qdepth", FIELD(search.quiescence_depth), 0, 16, "capture quiescence plies at the leaves (0: off)")
        .integer("qmoves", FIELD(search.quiescence_moves), 1, 8, "moves searched per quiescence node")
        .flag("qfloor", FIELD(search.quiescence_floor),
              "a quiescence node whose evaluation floor reaches beta is cut without generating its moves")
        .text("eval", FIELD(eval), "learned-evaluation file for the leaves (empty: the hand evaluation)")
        .text("probcut", FIELD(probcut),
              "Multi-ProbCut fit made with this eval (`mushroom probcut-fit`; empty: no ProbCut)")
        .real("probcut_sigmas", FIELD(search.probcut_sigmas), 0, 8,
              "ProbCut cuts when the shallow search predicts this many spreads beyond the window")
        .integer("probcut_depth", FIELD(search.probcut_depth), 2, 32,
                 "ProbCut tries nodes with at least this many plies left (and a fitted pair)");
    add_time_settings(t);
    return t;
  }();
  return table;
}

AlphaBetaAgentConfig read_alphabeta_options(OptionSource& opts) {
  AlphaBetaAgentConfig c;
  alphabeta_settings().read(opts, c);
  return c;
}

MctsAgentConfig read_mcts_search_options(OptionSource& opts, uint64_t seed) {
  MctsAgentConfig c;
  c.mcts.seed = seed;
  mcts_search_settings().read(opts, c);
  return c;
}

#undef FIELD

}  // namespace mushroom
