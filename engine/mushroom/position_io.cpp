#include "mushroom/position_io.h"

#include <memory>

#include "util/text.h"

namespace mushroom {
namespace {

std::string where(const std::string& source, int line, int column) {
  return source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

struct Line {
  int number;  // 1-based
  std::string_view text;
};

// Checks one row of 17 characters from `allowed`; returns the characters.
std::string_view check_row(const Line& line, const std::string& source, std::string_view allowed,
                           const char* what) {
  std::string_view row = line.text;
  while (!row.empty() && (row.back() == ' ' || row.back() == '\t' || row.back() == '\r'))
    row.remove_suffix(1);
  for (size_t i = 0; i < row.size(); ++i) {
    if (i >= size_t(kCols))
      throw ParseError(where(source, line.number, int(i) + 1) + "row has more than 17 " + what);
    if (allowed.find(row[i]) == std::string_view::npos)
      throw ParseError(where(source, line.number, int(i) + 1) + "expected " + what + ", got '" +
                       std::string(1, row[i]) + "'");
  }
  if (row.size() < size_t(kCols))
    throw ParseError(where(source, line.number, int(row.size()) + 1) + "row has only " +
                     std::to_string(row.size()) + " of 17 " + what);
  return row;
}

constexpr std::string_view kDigitChars = "0123456789";
constexpr std::string_view kOwnerChars = ".12";

bool is_blank(std::string_view s) { return trim(s).empty(); }

std::vector<Line> number_lines(const std::vector<std::string>& lines) {
  std::vector<Line> out;
  for (size_t i = 0; i < lines.size(); ++i) out.push_back({int(i) + 1, lines[i]});
  return out;
}

void fill_digits(Position& pos, const std::vector<Line>& lines, size_t first, const std::string& source) {
  for (int r = 0; r < kRows; ++r) {
    std::string_view row = check_row(lines[first + r], source, kDigitChars, "digits 0-9");
    for (int c = 0; c < kCols; ++c) pos.set_digit(r, c, row[c] - '0');
  }
}

}  // namespace

// Reads up to 10 non-blank lines from lines[i], checking each as it comes so
// that a bad character is reported before a missing row. Returns the start.
size_t read_block(const std::vector<Line>& lines, size_t& i, const std::string& source,
                  std::string_view allowed, const char* what, const char* block_name) {
  while (i < lines.size() && is_blank(lines[i].text)) ++i;
  const size_t start = i;
  size_t count = 0;
  while (i < lines.size() && !is_blank(lines[i].text) && count < size_t(kRows)) {
    check_row(lines[i], source, allowed, what);
    ++i, ++count;
  }
  if (count < size_t(kRows)) {
    const int line_no = i < lines.size() ? lines[i].number : int(lines.size()) + 1;
    throw ParseError(where(source, line_no, 1) + "expected 10 rows of " + block_name + ", found " +
                     std::to_string(count));
  }
  return start;
}

namespace {

constexpr std::string_view kToMove = "to move:", kLastMove = "last move:";

bool is_state_line(std::string_view text) {
  const std::string_view t = trim(text);
  return t.rfind(kToMove, 0) == 0 || t.rfind(kLastMove, 0) == 0;
}

// The optional "to move:" and "last move:" lines, each at most once.
void read_state_lines(Position& pos, const std::vector<Line>& lines, size_t i, const std::string& source) {
  bool seen_to_move = false, seen_last_move = false;
  for (; i < lines.size(); ++i) {
    const std::string_view t = trim(lines[i].text);
    if (t.empty()) continue;
    const bool to_move = t.rfind(kToMove, 0) == 0, last_move = t.rfind(kLastMove, 0) == 0;
    if (!to_move && !last_move)
      throw ParseError(where(source, lines[i].number, 1) + "expected 'to move: FIRST|SECOND' or 'last move: pass', got '" +
                       std::string(t) + "'");
    const std::string_view value = trim(t.substr((to_move ? kToMove : kLastMove).size()));
    if (to_move) {
      if (seen_to_move) throw ParseError(where(source, lines[i].number, 1) + "a second 'to move:' line");
      if (value != "FIRST" && value != "SECOND")
        throw ParseError(where(source, lines[i].number, 1) + "'to move:' takes FIRST or SECOND, not '" +
                         std::string(value) + "'");
      pos.set_to_move(value == "FIRST" ? kFirst : kSecond);
      seen_to_move = true;
    } else {
      if (seen_last_move) throw ParseError(where(source, lines[i].number, 1) + "a second 'last move:' line");
      if (value != "pass")
        throw ParseError(where(source, lines[i].number, 1) + "'last move:' takes only pass (leave the line out "
                         "otherwise), not '" + std::string(value) + "'");
      pos.set_last_pass(true);
      seen_last_move = true;
    }
  }
}

}  // namespace

Position parse_position(std::string_view text, const std::string& source) {
  const auto raw = split_lines(text);
  const auto lines = number_lines(raw);
  size_t i = 0;
  Position pos;
  const size_t digits_start = read_block(lines, i, source, kDigitChars, "digits 0-9", "digits");
  fill_digits(pos, lines, digits_start, source);
  while (i < lines.size() && is_blank(lines[i].text)) ++i;
  if (i < lines.size() && !is_state_line(lines[i].text)) {
    const size_t owners_start =
        read_block(lines, i, source, kOwnerChars, "owners ('.', '1', '2')", "owners ('.', '1', '2')");
    for (int r = 0; r < kRows; ++r) {
      std::string_view row = lines[owners_start + r].text;
      for (int c = 0; c < kCols; ++c) {
        const Owner o = row[c] == '1' ? Owner::kFirst : row[c] == '2' ? Owner::kSecond : Owner::kNone;
        if (o != Owner::kNone && pos.digit(r, c) != 0)
          throw ParseError(where(source, lines[owners_start + r].number, c + 1) + "cell (" + std::to_string(r) + "," +
                           std::to_string(c) + ") is owned but still holds the digit " +
                           std::to_string(pos.digit(r, c)) + " (line " +
                           std::to_string(lines[digits_start + r].number) + "): a taken cell is empty");
        pos.set_owner(r, c, o);
      }
    }
  }
  read_state_lines(pos, lines, i, source);
  return pos;
}

Position load_position_file(const std::string& path) { return parse_position(read_file(path), path); }

std::vector<Position> parse_position_list(std::string_view text, const std::string& source) {
  const auto raw = split_lines(text);
  const auto lines = number_lines(raw);
  std::vector<Position> positions;
  size_t i = 0;
  while (true) {
    while (i < lines.size() && is_blank(lines[i].text)) ++i;
    if (i == lines.size()) break;
    const size_t start = i;
    while (i < lines.size() && !is_blank(lines[i].text)) ++i;
    if (i - start != size_t(kRows))
      throw ParseError(where(source, lines[start].number, 1) + "block has " + std::to_string(i - start) +
                       " lines; each position is 10 lines of 17 digits");
    Position pos;
    fill_digits(pos, lines, start, source);
    positions.push_back(pos);
  }
  return positions;
}

std::string format_init_line(const Position& pos) {
  std::string line = "INIT";
  for (int r = 0; r < kRows; ++r) {
    line += ' ';
    for (int c = 0; c < kCols; ++c) line += char('0' + pos.digit(r, c));
  }
  return line;
}

Position parse_init_rows(const std::vector<std::string_view>& rows) {
  if (rows.size() != size_t(kRows))
    throw ParseError("INIT: expected 10 rows of 17 digits, got " + std::to_string(rows.size()) + " words");
  std::vector<Line> lines;
  for (size_t r = 0; r < rows.size(); ++r) lines.push_back({int(r) + 1, rows[r]});
  // Errors read "INIT:<row word>:<character>: ...".
  Position pos;
  fill_digits(pos, lines, 0, "INIT");
  return pos;
}

std::string format_position(const Position& pos, bool always_owners) {
  std::string out;
  bool any_owner = false;
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      out += char('0' + pos.digit(r, c));
      any_owner |= pos.owner(r, c) != Owner::kNone;
    }
    out += '\n';
  }
  if (any_owner || always_owners) {
    out += '\n';
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) {
        const Owner o = pos.owner(r, c);
        out += o == Owner::kFirst ? '1' : o == Owner::kSecond ? '2' : '.';
      }
      out += '\n';
    }
  }
  if (pos.to_move() == kSecond || pos.last_move_was_pass()) out += '\n';
  if (pos.to_move() == kSecond) out += "to move: SECOND\n";
  if (pos.last_move_was_pass()) out += "last move: pass\n";
  return out;
}

std::string pretty_board(const Position& pos) {
  std::string out = "   ";
  for (int c = 0; c < kCols; ++c) out += (c < 10 ? "  " : " ") + std::to_string(c);
  out += '\n';
  for (int r = 0; r < kRows; ++r) {
    out += " " + std::to_string(r) + " ";
    for (int c = 0; c < kCols; ++c) {
      const int d = pos.digit(r, c);
      const Owner o = pos.owner(r, c);
      out += "  ";
      if (d) out += char('0' + d);
      else out += o == Owner::kFirst ? 'A' : o == Owner::kSecond ? 'B' : '.';
    }
    out += '\n';
  }
  out += "first (A): " + std::to_string(pos.score(kFirst)) +
         "  second (B): " + std::to_string(pos.score(kSecond)) + "\n";
  return out;
}

}  // namespace mushroom
