#include "protocol/game_log.h"

#include <stdexcept>

#include "mushroom/position_io.h"
#include "protocol/bot_session.h"
#include "util/text.h"

namespace mushroom {

Position GameLog::final_position() const {
  Position pos = start;
  for (const LoggedMove& m : moves) {
    pos.set_to_move(m.player);
    pos.apply(m.move);
  }
  return pos;
}

void check_logged_move(Position& pos, const LoggedMove& move, size_t index) {
  pos.set_to_move(move.player);
  const char* why = nullptr;
  if (!pos.is_legal(move.move, &why))
    throw std::invalid_argument("move " + std::to_string(index + 1) + " (" + player_name(move.player) + " " +
                                to_string(move.move) + ") is illegal: " + (why ? why : "not allowed"));
}

std::string format_game_log(const GameLog& log) {
  std::string out = format_init_line(log.start) + "\n";
  for (const LoggedMove& m : log.moves) {
    out += std::string(player_name(m.player)) + " " + to_string(m.move) + " " + std::to_string(m.ms) + "\n";
    if (m.search) {
      out += "SEARCH " + format_fixed(m.search->value, 4) + " " + std::to_string(m.search->candidates.size());
      for (const SearchCandidate& c : m.search->candidates)
        out += "  " + to_string(c.move) + " " + std::to_string(c.visits) + " " + format_fixed(c.q, 4);
      out += "\n";
    }
  }
  if (log.aborted_by) {
    out += std::string("ABORT ") + player_name(*log.aborted_by) + " " + log.abort_reason + "\n";
  } else if (log.finished) {
    out += "FINISH\n";
    out += "SCOREFIRST " + std::to_string(log.score_first) + "\n";
    out += "SCORESECOND " + std::to_string(log.score_second) + "\n";
  }
  return out;
}

namespace {

// A move at words[at..at+3] that a log may hold: the pass, or a rectangle on
// the board, which replaying cannot take outside it (a rectangle such as
// 0 -1 -1 -1 would); nullopt when the words are not four integers.
template <typename Fail>
std::optional<Move> parse_logged_move(const std::vector<std::string_view>& words, size_t at, const Fail& fail) {
  const std::optional<Move> move = parse_move_words(words, at);
  if (move && *move != Move::pass() && !move->on_board())
    throw fail("move '" + std::string(words[at]) + " " + std::string(words[at + 1]) + " " + std::string(words[at + 2]) +
               " " + std::string(words[at + 3]) + "' is neither a rectangle on the board nor the pass -1 -1 -1 -1");
  return move;
}

// "SEARCH value n" then n groups "r1 c1 r2 c2 visits q".
template <typename Fail>
SearchNote parse_search_note(const std::vector<std::string_view>& words, const Fail& fail) {
  const char* shape = "expected 'SEARCH value n' and n groups 'r1 c1 r2 c2 visits q'";
  SearchNote note;
  int n = 0;
  if (words.size() < 3 || !parse_double(words[1], note.value) || !parse_int(words[2], n) || n < 0 ||
      words.size() != 3 + size_t(n) * 6)
    throw fail(shape);
  if (note.value < -1 || note.value > 1) throw fail("SEARCH value " + std::string(words[1]) + " is outside [-1, 1]");
  for (int i = 0; i < n; ++i) {
    const size_t at = 3 + size_t(i) * 6;
    SearchCandidate c;
    const auto move = parse_logged_move(words, at, fail);
    if (!move || !parse_int(words[at + 4], c.visits) || c.visits < 0 || !parse_double(words[at + 5], c.q))
      throw fail(shape);
    if (c.q < -1 || c.q > 1) throw fail("SEARCH q " + std::string(words[at + 5]) + " is outside [-1, 1]");
    c.move = *move;
    note.candidates.push_back(c);
  }
  return note;
}

}  // namespace

GameLog parse_game_log(std::string_view text, const std::string& source) {
  GameLog log;
  bool have_init = false;
  int line_no = 0;
  auto fail = [&](const std::string& why) -> ParseError {
    return ParseError(source + ":" + std::to_string(line_no) + ": " + why);
  };
  for (const std::string& line : split_lines(text)) {
    ++line_no;
    const auto words = split_words(line);
    if (words.empty()) continue;
    const std::string_view cmd = words[0];
    if (cmd == "INIT") {
      if (have_init) throw fail("a second INIT line");
      try {
        log.start = parse_init_rows(std::vector<std::string_view>(words.begin() + 1, words.end()));
      } catch (const ParseError& e) {
        throw fail(e.what());
      }
      have_init = true;
    } else if (cmd == "FIRST" || cmd == "SECOND") {
      if (!have_init) throw fail("a move before INIT");
      int ms = 0;
      if (words.size() != 6 || !parse_int(words[5], ms)) throw fail("expected '" + std::string(cmd) + " r1 c1 r2 c2 ms'");
      const auto move = parse_logged_move(words, 1, fail);
      if (!move) throw fail("expected '" + std::string(cmd) + " r1 c1 r2 c2 ms'");
      log.moves.push_back({cmd == "FIRST" ? kFirst : kSecond, *move, ms});
    } else if (cmd == "SEARCH") {
      if (log.moves.empty() || log.moves.back().search) throw fail("SEARCH must follow its move line, once");
      log.moves.back().search = parse_search_note(words, fail);
    } else if (cmd == "FINISH") {
      log.finished = true;
    } else if (cmd == "SCOREFIRST" || cmd == "SCORESECOND") {
      int v = 0;
      if (words.size() != 2 || !parse_int(words[1], v)) throw fail("expected '" + std::string(cmd) + " n'");
      (cmd == "SCOREFIRST" ? log.score_first : log.score_second) = v;
    } else if (cmd == "ABORT") {
      if (words.size() < 2 || (words[1] != "FIRST" && words[1] != "SECOND")) throw fail("expected 'ABORT FIRST|SECOND reason'");
      log.aborted_by = words[1] == "FIRST" ? kFirst : kSecond;
      const size_t at = line.find(words[1]) + words[1].size();
      log.abort_reason = std::string(trim(std::string_view(line).substr(at)));
    } else {
      throw fail("unknown line '" + std::string(cmd) + "'");
    }
  }
  if (!have_init) throw ParseError(source + ": no INIT line");
  return log;
}

GameLog read_game_log(const std::string& path) { return parse_game_log(read_file(path), path); }

}  // namespace mushroom
