#include "protocol/bot_session.h"

#include <exception>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/greedy_agent.h"
#include "mushroom/position_io.h"
#include "util/text.h"

namespace mushroom {

std::optional<Move> parse_move_words(const std::vector<std::string_view>& words, size_t first) {
  if (words.size() < first + 4) return std::nullopt;
  int v[4];
  for (int i = 0; i < 4; ++i)
    if (!parse_int(words[first + i], v[i]) || v[i] < -128 || v[i] > 127) return std::nullopt;
  if (v[0] == -1 && v[1] == -1 && v[2] == -1 && v[3] == -1) return Move::pass();
  return Move::rect(v[0], v[1], v[2], v[3]);
}

BotSession::BotSession(std::function<std::unique_ptr<Agent>()> make_agent, std::ostream& out, std::ostream& err)
    : make_agent_(std::move(make_agent)), out_(out), err_(err) {}

void BotSession::warn(const std::string& message) {
  err_ << "bot: line " << line_number_ << ": " << message << std::endl;
}

Agent& BotSession::agent() {
  if (!agent_) agent_ = make_agent_();
  return *agent_;
}

bool BotSession::handle_line(std::string_view raw) {
  ++line_number_;
  const auto words = split_words(raw);
  if (words.empty()) return true;  // blank lines are harmless
  const std::string_view command = words[0];
  try {
    if (command == "READY") on_ready(words);
    else if (command == "INIT") on_init(words);
    else if (command == "TIME") on_time(words);
    else if (command == "OPP") on_opp(words);
    else if (command == "FINISH") {
      finish_analysis();
      return false;
    }
    else warn("unknown command '" + std::string(command) + "' ignored");
  } catch (const std::exception& e) {
    warn(std::string("error: ") + e.what());
  }
  return true;
}

void BotSession::on_ready(const std::vector<std::string_view>& words) {
  if (words.size() != 2 || (words[1] != "FIRST" && words[1] != "SECOND")) {
    warn("READY needs FIRST or SECOND; assuming " + std::string(words.size() > 1 && words[1] == "SECOND" ? "SECOND" : "FIRST"));
  }
  me_ = words.size() > 1 && words[1] == "SECOND" ? kSecond : kFirst;
  out_ << "OK" << std::endl;
  agent();  // start-up after OK
}

void BotSession::on_init(const std::vector<std::string_view>& words) {
  std::vector<std::string_view> rows(words.begin() + 1, words.end());
  position_ = parse_init_rows(rows);
  if (!me_) {
    warn("INIT before READY; assuming we move FIRST");
    me_ = kFirst;
  }
  agent().new_game(*position_, *me_);
}

void BotSession::on_time(const std::vector<std::string_view>& words) {
  Clock clock;
  if (words.size() != 3 || !parse_int(words[1], clock.my_ms) || !parse_int(words[2], clock.opp_ms)) {
    warn("TIME needs two integers; assuming 10000 ms each");
    clock = Clock{};
  }
  if (!position_) {
    warn("TIME before INIT; passing");
    out_ << to_string(Move::pass()) << std::endl;
    return;
  }
  Position& pos = *position_;
  if (pos.game_over()) {
    warn("TIME after the game ended (two passes); passing");
    out_ << to_string(Move::pass()) << std::endl;
    return;
  }
  if (me_ && pos.to_move() != *me_) {
    warn("TIME but by our count it is the opponent's turn (a missing OPP?); playing for our side");
    pos.set_to_move(*me_);
  }
  Move m = agent().choose_move(pos, clock);
  const char* why = nullptr;
  if (!pos.is_legal(m, &why)) {
    warn("agent " + agent().name() + " chose illegal move " + to_string(m) + " (" + why + "); playing greedy instead");
    m = greedy_move(pos);
  }
  if (analysis_) analyze_own_move(pos, m);
  agent().observe_move(pos, m);
  pos.apply(m);
  out_ << to_string(m) << std::endl;
}

void BotSession::on_opp(const std::vector<std::string_view>& words) {
  if (!position_) {
    warn("OPP before INIT ignored");
    return;
  }
  const auto move = parse_move_words(words, 1);
  if (!move || words.size() > 6) {
    warn("OPP needs 'r1 c1 r2 c2 ms'; ignored");
    return;
  }
  int ms = 0;
  if (words.size() == 6 && !parse_int(words[5], ms)) warn("OPP time is not an integer; ignored");
  Position& pos = *position_;
  const Move& m = *move;
  if (!m.is_pass() && !m.on_board()) {
    warn("OPP move " + to_string(m) + " is outside the board; ignored");
    return;
  }
  if (me_ && pos.to_move() == *me_) {
    warn("OPP but by our count it is our turn; applying it for the opponent");
    pos.set_to_move(Player(1 - *me_));
  }
  const char* why = nullptr;
  if (!pos.is_legal(m, &why))
    warn("OPP move " + to_string(m) + " is illegal (" + why + "); applying it as the referee says");
  if (analysis_) note_opponent_move(pos, m);
  agent().observe_move(pos, *move);
  pos.apply(*move);
}

void BotSession::write_analysis(const MoveAnalysis& move) {
  if (!analysis_header_written_) *analysis_ << move_analysis_header() << "\n";
  analysis_header_written_ = true;
  *analysis_ << format_move_analysis(move) << std::endl;
}

void BotSession::analyze_own_move(const Position& pos, const Move& m) {
  ++moves_played_;
  const std::optional<SearchReport> report = agent().last_report();
  if (opponent_move_ && report) {
    opponent_move_->after_cells = -report->cells;
    opponent_move_->after_proved = report->proved;
    write_analysis(*opponent_move_);
  }
  opponent_move_.reset();
  expected_.reset();
  if (!report) return;  // a forced pass: nothing was searched
  MoveAnalysis own;
  own.number = moves_played_;
  own.player = pos.to_move();
  own.played = m;
  own.gain = cells_taken(pos, m);
  own.before = report;
  own.before_cells = own.after_cells = report->cells;
  own.before_proved = own.after_proved = report->proved;
  write_analysis(own);
  SearchReport reply;
  reply.cells = -report->cells;
  reply.proved = report->proved;
  reply.depth = report->depth > 0 ? report->depth - 1 : 0;
  if (report->pv.size() > 1 && report->pv.front() == m) {
    reply.pv.assign(report->pv.begin() + 1, report->pv.end());
    reply.best = reply.pv.front();
  }
  expected_ = std::move(reply);
}

void BotSession::note_opponent_move(const Position& pos, const Move& m) {
  ++moves_played_;
  opponent_move_.reset();
  if (!expected_) return;  // no search of ours saw this position
  MoveAnalysis theirs;
  theirs.number = moves_played_;
  theirs.player = pos.to_move();
  theirs.played = m;
  theirs.gain = cells_taken(pos, m);
  theirs.before_cells = expected_->cells;
  theirs.before_proved = expected_->proved;
  // The best move shown is the reply our search expected, when it had one.
  if (!expected_->pv.empty()) theirs.before = expected_;
  opponent_move_ = std::move(theirs);
  expected_.reset();
}

void BotSession::finish_analysis() {
  if (!analysis_ || !opponent_move_ || !position_ || !position_->game_over()) return;
  // The opponent's move ended the game: its value after is the final margin.
  const int margin = position_->score(opponent_move_->player) - position_->score(Player(1 - opponent_move_->player));
  opponent_move_->after_cells = margin;
  opponent_move_->after_proved = true;
  write_analysis(*opponent_move_);
  opponent_move_.reset();
}

int BotSession::run(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!handle_line(line)) return 0;
  }
  err_ << "bot: input ended before FINISH" << std::endl;
  return 0;
}

}  // namespace mushroom
