// In-process matches on paired boards (each board played twice, sides
// swapped), for gating candidates and evaluating against baselines.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "mushroom/position.h"
#include "run/match_configs.h"
#include "train/train_config.h"

namespace mushroom::run {

struct MatchResult {
  int games = 0;
  int wins = 0, draws = 0, losses = 0;  // for side A
  double mean_margin = 0;               // A's cells minus B's, per game
  double score() const { return games ? (wins + 0.5 * draws) / games : 0; }
};

using AgentMaker = std::function<std::unique_ptr<Agent>(uint64_t seed)>;

// The starting boards of a match: `boards` seeded random boards from seed
// when `file_boards` is empty, else `boards` of file_boards from position
// `offset` on, wrapping around.
std::vector<Position> match_boards(int boards, uint64_t seed, const std::vector<Position>& file_boards, int64_t offset);

// The boards of gate.boards_file (arena/boards_file.h), read and checked
// once when the run starts; none when the key is empty.
std::vector<Position> gate_file_boards(const GateConfig& gate);

// Each of `starts` played twice (sides swapped), spread over `threads`
// threads; agents are seeded from seed.
MatchResult play_paired_match(const AgentMaker& a, const AgentMaker& b, const std::vector<Position>& starts,
                              uint64_t seed, int threads);
// boards paired boards from seed.
MatchResult play_paired_match(const AgentMaker& a, const AgentMaker& b, int boards, uint64_t seed, int threads);

// The `nn` agent with a model file at a fixed number of simulations.
AgentMaker nn_agent_maker(const std::string& model_path, int sims);
// A built-in agent by name with options (e.g. "greedy", or "mcts" with sims).
AgentMaker builtin_agent_maker(const std::string& name, std::map<std::string, std::string> options = {});

}  // namespace mushroom::run
