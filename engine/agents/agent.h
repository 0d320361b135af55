// The agent interface shared by the contest bot, the arena and `play`.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "agents/search_report.h"
#include "mushroom/position.h"

namespace mushroom {

// Remaining time banks in milliseconds, as the referee's TIME line gives them.
struct Clock {
  int my_ms = 10000;
  int opp_ms = 10000;
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  // Called once per game, before any move.
  virtual void new_game(const Position& /*start*/, Player /*me*/) {}
  // Picks a legal move (or the pass) for the side to move in pos.
  virtual Move choose_move(const Position& pos, const Clock& clock) = 0;
  // Told of every move played by either side, with the position before it.
  virtual void observe_move(const Position& /*before*/, const Move& /*m*/) {}
  // What the last choose_move's search found; agents that keep no such
  // account (random, greedy, MCTS) return nullopt.
  virtual std::optional<SearchReport> last_report() const { return std::nullopt; }
  // The value in cells, for the side to move in `pos`, of playing `move`
  // there, searched as deep as the last choose_move(pos) searched the
  // position and on the same table: a move's loss against last_report()'s
  // best is then measured within one search (agents/move_analysis.h). The
  // report's best move gets exactly the report's value. nullopt: the agent
  // keeps no report, or `pos` is not the position it last searched.
  virtual std::optional<double> move_value(const Position& /*pos*/, const Move& /*move*/) { return std::nullopt; }
};

// Agent settings from the command line: "key=value" pairs. Each agent reads
// the keys it knows and the factory rejects any left over.
struct AgentOptions {
  uint64_t seed = 1;
  std::map<std::string, std::string> values;
};

class OptionSource;
// Later stages add agents (e.g. nn/ adds `nn`) by registering a maker at
// start-up; the maker reads its options from the source (through its
// settings tables, util/settings.h), and options_help lists them.
using AgentMaker = std::function<std::unique_ptr<Agent>(OptionSource& opts, const AgentOptions& options)>;
void register_agent(const std::string& name, AgentMaker maker, std::string options_help);

// Known names: random, greedy, mcts, alphabeta and registered ones. Throws std::invalid_argument naming an unknown
// agent or option.
std::unique_ptr<Agent> make_agent(const std::string& name, const AgentOptions& options);
// The names make_agent accepts, for --help texts.
std::string agent_names();
// Every agent's options with their defaults, ranges and help.
std::string agent_options_help();
// Throws std::invalid_argument naming the first option no settings table
// of the agent read (make_agent calls it; a maker may call it earlier).
void reject_unread_options(const std::string& agent, const OptionSource& opts);

}  // namespace mushroom
