#include "arena/time_use.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/csv.h"
#include "util/text.h"

namespace mushroom {

double ProgramTimeUse::total_ms() const {
  double ms = 0;
  for (const auto& [low, band] : bands) ms += band.ms;
  return ms;
}

int ProgramTimeUse::moves() const {
  int n = 0;
  for (const auto& [low, band] : bands) n += band.moves;
  return n;
}

TimeUseTable::TimeUseTable(int band_width) : band_width_(band_width) {
  if (band_width < 1 || band_width > kCells)
    throw std::invalid_argument("time-use band width " + std::to_string(band_width) + " is out of range: 1 to " +
                                std::to_string(kCells) + " mushrooms left");
}

size_t TimeUseTable::program_index(const std::string& name) {
  for (size_t i = 0; i < programs_.size(); ++i)
    if (programs_[i].name == name) return i;
  programs_.push_back({name, {}, {}});
  return programs_.size() - 1;
}

void TimeUseTable::add_game(const GameLog& log, const std::string& first, const std::string& second,
                            const std::string& source) {
  if (first == second)
    throw std::invalid_argument(source + ": both seats are named '" + first +
                                "': a program's time is counted under its name, so the two need different names");
  if (log.aborted_by || !log.finished) {
    ++skipped_;
    return;
  }
  // Checked whole before anything is added, so a bad log leaves the table as it was.
  std::vector<std::pair<int, const LoggedMove*>> moves;  // mushrooms left before each move
  Position pos = log.start;
  for (size_t i = 0; i < log.moves.size(); ++i) {
    try {
      check_logged_move(pos, log.moves[i], i);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(source + ": " + e.what());
    }
    moves.push_back({pos.mushrooms_left(), &log.moves[i]});
    pos.apply(log.moves[i].move);
  }
  const size_t first_index = program_index(first), second_index = program_index(second);
  ProgramTimeUse* seat[2] = {&programs_[first_index], &programs_[second_index]};  // both exist: neither moves now
  double used[2] = {0, 0};
  for (const auto& [left, move] : moves) {
    const int s = move->player == kFirst ? 0 : 1;
    TimeUseBand& band = seat[s]->bands[left / band_width_ * band_width_];
    ++band.moves;
    band.ms += move->ms;
    used[s] += move->ms;
  }
  seat[0]->game_ms.push_back(used[0]);
  seat[1]->game_ms.push_back(used[1]);
  ++games_;
}

double game_ms_quantile(const ProgramTimeUse& program, double q) {
  if (program.game_ms.empty()) return 0;
  std::vector<double> sorted = program.game_ms;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size()));
  return sorted[static_cast<size_t>(std::max(1.0, rank)) - 1];
}

namespace {

// A band's highest mushrooms left: the board holds at most kCells.
int band_high(int low, int width) { return std::min(low + width - 1, kCells); }

std::string band_label(int low, int width) {
  const int high = band_high(low, width);
  return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
}

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string percent(double part, double whole) {
  return format_fixed(whole > 0 ? 100.0 * part / whole : 0.0, 1) + "%";
}

}  // namespace

std::string format_time_use(const TimeUseTable& table, double bank_ms) {
  std::string out = count_of(table.games(), "game");
  if (table.skipped() > 0)
    out += " (and " + count_of(table.skipped(), "game") + " left out: a forfeit or no FINISH, not a whole game's bank)";
  out += "\n";
  for (const ProgramTimeUse& p : table.programs()) {
    const int games = static_cast<int>(p.game_ms.size());
    const double mean = games > 0 ? p.total_ms() / games : 0;
    out += "\n" + p.name + ": " + count_of(games, "game") + ", bank used a game: mean " + format_fixed(mean, 0) +
           " ms, median " + format_fixed(game_ms_quantile(p, 0.5), 0) + ", 90th percentile " +
           format_fixed(game_ms_quantile(p, 0.9), 0) + ", most " + format_fixed(game_ms_quantile(p, 1.0), 0) +
           "; left unused of " + format_fixed(bank_ms, 0) + " ms: " + format_fixed(bank_ms - mean, 0) +
           " ms a game on average\n";
    out += "  mushrooms left    moves   mean ms   share of its time   spent by then\n";
    const double total = p.total_ms();
    double spent = 0;
    for (auto it = p.bands.rbegin(); it != p.bands.rend(); ++it) {
      const TimeUseBand& band = it->second;
      spent += band.ms;
      out += "  " + pad_left(band_label(it->first, table.band_width()), 14) + pad_left(std::to_string(band.moves), 9) +
             pad_left(format_fixed(band.moves > 0 ? band.ms / band.moves : 0, 0), 10) +
             pad_left(percent(band.ms, total), 20) + pad_left(percent(spent, total), 16) + "\n";
    }
  }
  return out;
}

std::string time_use_csv(const TimeUseTable& table) {
  std::string out = "program,left_low,left_high,moves,mean_ms,share\n";
  for (const ProgramTimeUse& p : table.programs()) {
    const double total = p.total_ms();
    for (auto it = p.bands.rbegin(); it != p.bands.rend(); ++it) {
      const TimeUseBand& band = it->second;
      out += csv_field(p.name) + "," + std::to_string(it->first) + "," +
             std::to_string(band_high(it->first, table.band_width())) + "," +
             std::to_string(band.moves) + "," + format_fixed(band.moves > 0 ? band.ms / band.moves : 0, 1) + "," +
             format_fixed(total > 0 ? band.ms / total : 0, 4) + "\n";
    }
  }
  return out;
}

}  // namespace mushroom
