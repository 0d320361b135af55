// Where a program's clock goes, read from game logs' time column (the
// official tool's format, protocol/game_log.h): the milliseconds of each
// move, summed by how many mushrooms were left before it, and the bank each
// game used. `mushroom time-use` prints it for a match folder or for logs.
//
// Games are decided at 95-125 mushrooms left; a time plan is judged by how
// much of the bank it spends there and how much it leaves unused at the end.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "protocol/game_log.h"

namespace mushroom {

struct TimeUseBand {
  int moves = 0;  // moves (passes included) made with this many mushrooms left
  double ms = 0;  // their time
};

struct ProgramTimeUse {
  std::string name;
  std::vector<double> game_ms;         // the bank used in each whole game, in the order added
  std::map<int, TimeUseBand> bands;    // by the band's lowest mushrooms left
  double total_ms() const;
  int moves() const;
};

class TimeUseTable {
 public:
  // band_width: mushrooms left a band spans (1 to 170); throws
  // std::invalid_argument naming it otherwise.
  explicit TimeUseTable(int band_width = 10);

  // Adds a finished game: the moves of `first` (who moved first) and
  // `second`. A game that ended in a forfeit (ABORT) or has no FINISH adds
  // nothing and is counted in skipped(): its bank use is not a whole game's.
  // Throws std::invalid_argument naming `source` and the move for an
  // illegal move (the mushrooms left would be wrong after it), and for two
  // seats of one name (their times could not be told apart).
  void add_game(const GameLog& log, const std::string& first, const std::string& second,
                const std::string& source = "<log>");

  int band_width() const { return band_width_; }
  int games() const { return games_; }
  int skipped() const { return skipped_; }
  // In the order first seen.
  const std::vector<ProgramTimeUse>& programs() const { return programs_; }

 private:
  // The program's place in programs_, added when new.
  size_t program_index(const std::string& name);
  int band_width_;
  int games_ = 0, skipped_ = 0;
  std::vector<ProgramTimeUse> programs_;
};

// The bank used by the q-quantile game (q in [0, 1], nearest rank); 0 with
// no games.
double game_ms_quantile(const ProgramTimeUse& program, double q);

// The report `mushroom time-use` prints: for each program, its games and the
// bank used a game (mean, median, 90th percentile, most; and what was left
// of bank_ms on average), then a row for each band of mushrooms left, most
// first: moves, mean ms a move, the share of the program's time, and the
// share spent so far counted from the first move.
std::string format_time_use(const TimeUseTable& table, double bank_ms);

// The same bands as CSV, one row per program and band:
//   program,left_low,left_high,moves,mean_ms,share
std::string time_use_csv(const TimeUseTable& table);

}  // namespace mushroom
