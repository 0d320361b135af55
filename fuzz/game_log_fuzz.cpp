// Game logs (protocol/game_log.h) as `replay`, `view`, `analyze`,
// `positions` and `time-use` read them. What parse_game_log accepts must
// write back (format_game_log) to a log that reads back the same, replay
// without checks as `mushroom replay` does (GameLog::final_position), and
// replay with every move checked as the viewer does, which may refuse an
// illegal move with an exception but nothing worse.
#include <stdexcept>
#include <string>

#include "fuzz/fuzz_support.h"
#include "protocol/game_log.h"
#include "view/game_viewer.h"

using namespace mushroom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source = "fuzz-game.log";
  GameLog log;
  if (!fuzz::read_or_refuse(source, [&] { log = parse_game_log(fuzz::as_text(data, size), source); })) return 0;
  const std::string written = format_game_log(log);
  GameLog again;
  if (!fuzz::read_or_refuse("written", [&] { again = parse_game_log(written, "written"); }) ||
      format_game_log(again) != written)
    fuzz::finding("the log written does not read back: " + fuzz::first_difference(written, format_game_log(again)));
  log.final_position();
  try {
    view::game_viewer_html(log, {});
  } catch (const std::invalid_argument&) {
    // an illegal move, named by its number
  }
  return 0;
}
