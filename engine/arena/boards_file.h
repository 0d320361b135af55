// Boards files: the starting boards of paired matches (`arena` and `ladder`
// --boards-file, a run's gate.boards_file and ladder.boards_file, and what
// `mushroom balanced-boards` writes).
//
// The official tool's INPUT format: a board is 10 lines of 17 digits, and
// boards are separated by blank lines. A starting board holds the digits
// 1-9 only, as the contest draws them. A 0, a row too short or too long, a
// board cut off and any other character are refused with the file, the line
// and the reason; nothing is padded or skipped.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "mushroom/position.h"

namespace mushroom {

struct BoardsFile {
  std::vector<Position> boards;
  std::string source;  // "PATH (fnv1a64 HEX)": names the file and its exact bytes
};

// Throws ParseError ("PATH:LINE:COLUMN: reason") on a malformed file and
// std::invalid_argument for a file with no board.
BoardsFile parse_boards_file(std::string_view text, const std::string& path);
BoardsFile read_boards_file(const std::string& path);

// Throws std::invalid_argument when a match asks for more boards than were
// given ("--boards N but only M boards were given"); nothing given is fine
// (seeded boards).
void check_boards_given(int boards, const std::vector<Position>& given);

// The boards in the same format, a blank line between two boards; the text
// parse_boards_file reads back.
std::string format_boards_file(const std::vector<Position>& boards);

}  // namespace mushroom
