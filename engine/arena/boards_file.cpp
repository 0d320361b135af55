#include "arena/boards_file.h"

#include <stdexcept>

#include "mushroom/position_io.h"
#include "util/hash.h"
#include "util/parse_error.h"
#include "util/text.h"

namespace mushroom {

BoardsFile parse_boards_file(std::string_view text, const std::string& path) {
  BoardsFile file;
  // The list parser checks the shape (10 rows of 17 digits per block) and
  // names the line; here the digits are checked against the contest's 1-9.
  file.boards = parse_position_list(text, path);
  if (file.boards.empty()) throw std::invalid_argument(path + ": no board in it");
  const std::vector<std::string> lines = split_lines(text);
  size_t line = 0;  // 0-based index of the next board's first row
  for (size_t b = 0; b < file.boards.size(); ++b) {
    while (line < lines.size() && trim(lines[line]).empty()) ++line;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c)
        if (file.boards[b].digit(r, c) == 0)
          throw ParseError(path + ":" + std::to_string(line + size_t(r) + 1) + ":" + std::to_string(c + 1) +
                           ": board " + std::to_string(b + 1) +
                           " has the digit 0; a starting board holds the digits 1-9 only");
    line += size_t(kRows);
  }
  file.source = path + " (fnv1a64 " + fnv1a64_hex(text.data(), text.size()) + ")";
  return file;
}

BoardsFile read_boards_file(const std::string& path) { return parse_boards_file(read_file(path), path); }

void check_boards_given(int boards, const std::vector<Position>& given) {
  if (!given.empty() && size_t(boards) > given.size())
    throw std::invalid_argument("--boards " + std::to_string(boards) + " but only " + std::to_string(given.size()) +
                                " boards were given");
}

std::string format_boards_file(const std::vector<Position>& boards) {
  std::string text;
  for (const Position& board : boards) {
    if (!text.empty()) text += "\n";
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) text += char('0' + board.digit(r, c));
      text += '\n';
    }
  }
  return text;
}

}  // namespace mushroom
