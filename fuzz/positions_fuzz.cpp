// Positions files (mushroom/position_io.h): one position as `moves`,
// `perft`, `play --position` and `solve-endgame` read it, and a list of
// positions as the benchmarks read theirs, from the same text. What the
// reader accepts is written back by format_position and must read back as
// the same position (the format's promise: every position can be written
// and read back).
#include <string>

#include "fuzz/fuzz_support.h"
#include "mushroom/position_io.h"

using namespace mushroom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source = "fuzz-position.txt";
  const std::string_view text = fuzz::as_text(data, size);
  Position pos;
  if (fuzz::read_or_refuse(source, [&] { pos = parse_position(text, source); })) {
    const std::string written = format_position(pos);
    Position again;
    if (!fuzz::read_or_refuse("written", [&] { again = parse_position(written, "written"); }))
      fuzz::finding("format_position wrote a position that does not read back:\n" + written);
    if (format_position(again) != written || again.hash() != pos.hash())
      fuzz::finding("a position read back differs from the one written:\n" + written);
  }
  fuzz::read_or_refuse(source, [&] { parse_position_list(text, source); });
  return 0;
}
