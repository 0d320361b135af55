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
#include "agents/move_analysis.h"

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

  // `mushroom bot --analysis`: a line per move on this stream, in the
  // columns of agents/move_analysis.h, from the agent's own searches (null:
  // off). Our move: its search's value before it, and by its own account
  // the same after it. The opponent's move: before it, our last search's
  // value of that position, with its expected reply as the best move; after
  // it, our next search's value; written once that search is done.
  void set_analysis_stream(std::ostream* analysis) { analysis_ = analysis; }

 private:
  void on_ready(const std::vector<std::string_view>& words);
  void on_init(const std::vector<std::string_view>& words);
  void on_time(const std::vector<std::string_view>& words);
  void on_opp(const std::vector<std::string_view>& words);
  void warn(const std::string& message);
  Agent& agent();
  // --analysis: our move m from pos, the pending opponent's move first.
  void analyze_own_move(const Position& pos, const Move& m);
  void note_opponent_move(const Position& pos, const Move& m);
  void write_analysis(const MoveAnalysis& move);
  void finish_analysis();

  std::function<std::unique_ptr<Agent>()> make_agent_;
  std::unique_ptr<Agent> agent_;
  std::ostream& out_;
  std::ostream& err_;
  std::optional<Player> me_;
  std::optional<Position> position_;
  int line_number_ = 0;
  // --analysis state.
  std::ostream* analysis_ = nullptr;
  bool analysis_header_written_ = false;
  int moves_played_ = 0;
  // Our last search's view of the position after our move, for the
  // opponent's side: its value and the reply it expected.
  std::optional<SearchReport> expected_;
  std::optional<MoveAnalysis> opponent_move_;  // waiting for our next search
};

// Parses "r1 c1 r2 c2" words into a move; nullopt if any is not an integer.
// Range is not checked here (see Position::is_legal).
std::optional<Move> parse_move_words(const std::vector<std::string_view>& words, size_t first);

}  // namespace mushroom
