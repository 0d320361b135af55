// Position text format.
//
//   10 lines of 17 digits, 0 for an empty cell        (required)
//   optional blank lines
//   10 lines of 17 owner marks: '.' none, '1' first player, '2' second
//                                                      (optional)
//   optional blank lines
//   to move: FIRST|SECOND                              (optional; FIRST)
//   last move: pass                                    (optional; absent:
//                                                       it was no pass)
//
// Trailing spaces and CRLF line endings are accepted. Anything else is
// rejected with a ParseError naming the source, line and column, and so is
// a position no game can reach: a digit on an owned cell (a taken cell is
// empty). With the last two lines every position of a real game can be
// written and read back; files without them read as before.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mushroom/position.h"
#include "util/parse_error.h"

namespace mushroom {

// One position, as above.
Position parse_position(std::string_view text, const std::string& source = "<input>");
Position load_position_file(const std::string& path);

// Several digit-only positions: blocks of 10 lines separated by blank lines.
std::vector<Position> parse_position_list(std::string_view text, const std::string& source = "<input>");

// The protocol's INIT arguments: 10 words of 17 digits each.
Position parse_init_rows(const std::vector<std::string_view>& rows);
// The protocol's INIT line for pos's digits: "INIT" and the 10 rows.
std::string format_init_line(const Position& pos);

// Digits block, then a blank line and the owner block when anyone owns a
// cell, then the state lines when SECOND is to move or the last move was a pass.
std::string format_position(const Position& pos, bool always_owners = false);
// Human-readable board: digits, with owned empty cells shown as A/B.
std::string pretty_board(const Position& pos);

}  // namespace mushroom
