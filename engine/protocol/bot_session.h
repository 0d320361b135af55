// The contest protocol, bot side (seed 000):
//   READY FIRST|SECOND      -> "OK" at once (no heavy start-up before it)
//   INIT <10 rows of 17>    -> the board; the first player moves first
//   TIME myMs oppMs         -> our move, "r1 c1 r2 c2" or "-1 -1 -1 -1"
//   OPP r1 c1 r2 c2 ms      -> the opponent's move
//   FINISH                  -> exit 0
// Only OK and moves go to stdout. Odd input (CRLF, extra spaces, blank
// lines, unknown commands, bad numbers, an illegal OPP move, EOF) gets a
// message on the error stream and never a crash.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"

namespace mushroom {

class BotSession {
 public:
  // make_agent runs after OK is sent, so slow start-up never delays it.
  BotSession(std::function<std::unique_ptr<Agent>()> make_agent, std::ostream& out, std::ostream& err);

  // Handles one input line. Returns false once the session is over (FINISH).
  bool handle_line(std::string_view line);
  // Reads lines until FINISH or EOF; returns the process exit code.
  int run(std::istream& in);

  const std::optional<Position>& position() const { return position_; }

 private:
  void on_ready(const std::vector<std::string_view>& words);
  void on_init(const std::vector<std::string_view>& words);
  void on_time(const std::vector<std::string_view>& words);
  void on_opp(const std::vector<std::string_view>& words);
  void warn(const std::string& message);
  Agent& agent();

  std::function<std::unique_ptr<Agent>()> make_agent_;
  std::unique_ptr<Agent> agent_;
  std::ostream& out_;
  std::ostream& err_;
  std::optional<Player> me_;
  std::optional<Position> position_;
  int line_number_ = 0;
};

// Parses "r1 c1 r2 c2" words into a move; nullopt if any is not an integer.
// Range is not checked here (see Position::is_legal).
std::optional<Move> parse_move_words(const std::vector<std::string_view>& words, size_t first);

}  // namespace mushroom
