// The contest protocol as the bot reads it (protocol/bot_session.h): any
// stream of lines, against a cheap agent. The first byte picks the agent:
// greedy (microseconds a move), or alphabeta at depth 1 with the analysis
// stream on, whose search reports feed the analysis lines. Checked beyond
// the sanitizers: standard output holds only what the judge may read (OK
// for READY, one move for each TIME, nothing else), and each move is legal
// in the position the session held.
#include <memory>
#include <sstream>
#include <string>

#include "agents/greedy_agent.h"
#include "agents/search_agents.h"
#include "fuzz/fuzz_support.h"
#include "protocol/bot_session.h"
#include "util/text.h"

using namespace mushroom;

namespace {

std::unique_ptr<Agent> cheap_agent(bool searching) {
  if (!searching) return std::make_unique<GreedyAgent>();
  AlphaBetaAgentConfig config;
  config.depth = 1;
  config.solver = false;
  config.search.tt_bits = 10;  // the playing table's 16 MiB, cleared for each input, was most of the time
  return std::make_unique<AlphaBetaAgent>(config);
}

// What one input line wrote to stdout, checked against what it may write.
void check_output(std::string_view line, std::string_view written, const std::optional<Position>& before) {
  const auto words = split_words(line);
  const std::string_view command = words.empty() ? "" : words[0];
  const std::string shown = "'" + std::string(line) + "' wrote '" + std::string(written) + "'";
  if (command == "READY") {
    if (written != "OK\n") fuzz::finding(shown + " (READY answers OK)");
  } else if (command == "TIME") {
    const auto lines = split_lines(written);
    const auto move = lines.size() == 1 ? parse_move_words(split_words(lines[0]), 0) : std::nullopt;
    if (!move || written.back() != '\n' || split_words(lines[0]).size() != 4)
      fuzz::finding(shown + " (TIME answers one move)");
    if (before && !before->game_over() && !before->is_legal(*move))
      fuzz::finding(shown + ", an illegal move");
  } else if (!written.empty()) {
    fuzz::finding(shown + " (only READY and TIME answer)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool searching = data[0] & 1;
  std::istringstream in(std::string(fuzz::as_text(data + 1, size - 1)));
  std::ostringstream out, err, analysis;
  BotSession session([&] { return cheap_agent(searching); }, out, err);
  if (searching) session.set_analysis_stream(&analysis);
  // As BotSession::run reads them (std::getline keeps a CR), one line at a
  // time so that each line's output is checked.
  std::string line;
  size_t written = 0;
  while (std::getline(in, line)) {
    const std::optional<Position> before = session.position();
    const bool more = session.handle_line(line);
    const std::string now = out.str();
    check_output(line, std::string_view(now).substr(written), before);
    written = now.size();
    if (!more) break;
  }
  return 0;
}
