// games.csv (arena/games_file.h) as the arena resumes a match from it:
// read_games_file, which cuts a torn last record from the file, then
// resume_arena_games against a match of 8 boards between A and B (the
// first byte picks seeded boards, or boards given as from a boards file,
// recorded with board_seed 0), then the match's running figures on the
// games read back, in the order they finished. Checked beyond the
// sanitizers: the file, once repaired, reads back the same records and is
// left as it is; each record written back by format_game_record parses to
// the same line.
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/games_file.h"
#include "fuzz/fuzz_support.h"
#include "util/text.h"

using namespace mushroom;

namespace {

ArenaConfig match(bool boards_given) {
  ArenaConfig config;
  config.label[0] = "A";
  config.label[1] = "B";
  config.boards = 8;
  if (boards_given)
    for (int board = 0; board < config.boards; ++board) config.boards_given.push_back(random_board(uint64_t(board)));
  config.sprt = Sprt{0, 15};
  config.margin_sprt = MarginSprt{};
  return config;
}

std::string lines_of(const std::vector<GameRecord>& records) {
  std::string out;
  for (const GameRecord& r : records) out += format_game_record(r) + "\n";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const ArenaConfig seeded = match(false), given = match(true);
  const ArenaConfig& config = data[0] & 1 ? given : seeded;
  fuzz::fresh_scratch();
  const std::string path = fuzz::write_scratch_file("games.csv", fuzz::as_text(data + 1, size - 1));
  std::vector<GameRecord> records;
  if (!fuzz::read_or_refuse(path, [&] { records = read_games_file(path, true); })) return 0;
  const std::string repaired = read_file(path);
  std::vector<GameRecord> again;
  if (!fuzz::read_or_refuse(path, [&] { again = read_games_file(path, true); }) ||
      lines_of(again) != lines_of(records) || read_file(path) != repaired)
    fuzz::finding("games.csv, once repaired, does not read back the same");
  for (const GameRecord& r : records) {
    const std::string line = format_game_record(r);
    GameRecord back;
    if (!fuzz::read_or_refuse("written", [&] { back = parse_game_record(line, "written"); }) ||
        format_game_record(back) != line)
      fuzz::finding("the record written as " + line + " does not read back");
  }
  ArenaResume resume;
  if (!fuzz::read_or_refuse(path, [&] { resume = resume_arena_games(config, records, path); })) return 0;
  std::vector<ArenaGame> done;
  for (const int index : resume.order) {
    done.push_back(resume.games[size_t(index)]);
    match_summary(config, done);
  }
  return 0;
}
