#include "arena/referee.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "arena/cpu_clock.h"
#include "arena/subprocess.h"
#include "mushroom/position_io.h"
#include "protocol/bot_session.h"
#include "util/text.h"

namespace mushroom {

const char* clock_name(ClockKind kind) { return kind == ClockKind::kCpu ? "cpu" : "wall"; }

ClockKind parse_clock(const std::string& text) {
  if (text == "wall") return ClockKind::kWall;
  if (text == "cpu") return ClockKind::kCpu;
  throw std::invalid_argument("unknown clock '" + text + "' (known: wall, cpu)");
}

int RefereeResult::outcome() const {
  if (log.aborted_by) return *log.aborted_by == kFirst ? -1 : 1;
  return (log.score_first > log.score_second) - (log.score_first < log.score_second);
}

namespace {

std::string in_quotes(const std::string& s) {
  std::string shown = s.size() > 60 ? s.substr(0, 60) + "..." : s;
  std::string out = "'";
  for (char ch : shown) out += (ch >= 32 && ch < 127) ? ch : '?';
  return out + "'";
}

// Why a program stopped answering: how it ended and, when it said why, the
// last line of its stderr (kept whether or not a file was asked for), so
// that every path to a crash names its cause in the same words.
std::string crash_reason(Subprocess& proc, const std::string& waiting_for) {
  proc.finish(200);
  const std::string said = proc.last_stderr_line();
  return "crashed (" + proc.exit_description() + ") before " + waiting_for +
         (said.empty() ? "" : "; its stderr: " + said);
}

// Why a silent or closed program did not answer.
std::string failure_reason(Subprocess& proc, Subprocess::ReadStatus status, const std::string& waiting_for) {
  switch (status) {
    case Subprocess::ReadStatus::kTimeout: return "timeout waiting for " + waiting_for;
    case Subprocess::ReadStatus::kTooLong: return "output line too long";
    default: return crash_reason(proc, waiting_for);
  }
}

// One move's wait: the reply line and what the move costs the bank.
struct MoveWait {
  Subprocess::ReadStatus status;
  double charged_ms = 0;
  bool idle = false;  // the CPU clock's wall-time limit ran out
};

MoveWait wait_wall(Subprocess& proc, std::string& line, double bank_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  MoveWait wait{proc.read_line(line, int(std::ceil(bank_ms)))};
  wait.charged_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return wait;
}

// Waits in short slices, reading the process tree's CPU time after each, so
// a program that spends its bank is stopped near the moment it does.
MoveWait wait_cpu(Subprocess& proc, std::string& line, double bank_ms, double cpu_at_time, int wall_limit_ms) {
  constexpr int kSliceMs = 100;
  const auto t0 = std::chrono::steady_clock::now();
  while (true) {
    const double used = process_group_cpu_ms(proc.pid()) - cpu_at_time;
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (used >= bank_ms) return {Subprocess::ReadStatus::kTimeout, used};
    if (wall >= wall_limit_ms) return {Subprocess::ReadStatus::kTimeout, used, true};
    const double slice = std::min({double(kSliceMs), bank_ms - used, wall_limit_ms - wall});
    const auto status = proc.read_line(line, std::max(1, int(std::ceil(slice))));
    if (status == Subprocess::ReadStatus::kTimeout) continue;
    return {status, process_group_cpu_ms(proc.pid()) - cpu_at_time};
  }
}

}  // namespace

RefereeResult referee_game(const std::string& first_command, const std::string& second_command,
                           const Position& start, const RefereeConfig& config) {
  RefereeResult result;
  GameLog& log = result.log;
  log.start = start;
  std::unique_ptr<Subprocess> procs[2];
  auto abort_game = [&](Player p, const std::string& reason) {
    log.aborted_by = p;
    log.abort_reason = reason;
    for (auto& proc : procs)
      if (proc) proc->kill_all();
    return result;
  };

  const std::string commands[2] = {first_command, second_command};
  for (Player p : {kFirst, kSecond}) {
    try {
      std::vector<std::string> env;
      if (config.require_weights) env.push_back("MUSHROOM_REQUIRE_WEIGHTS=1");
      procs[p] = std::make_unique<Subprocess>(commands[p], config.stderr_path[p], config.cpu[p], env);
    } catch (const std::exception& e) {
      result.start_failed = true;
      return abort_game(p, std::string("failed to start: ") + e.what());
    }
  }
  // READY / OK.
  for (Player p : {kFirst, kSecond}) {
    if (!procs[p]->write_line(std::string("READY ") + player_name(p))) {
      result.start_failed = true;
      return abort_game(p, crash_reason(*procs[p], "READY"));
    }
    std::string line;
    const auto status = procs[p]->read_line(line, config.ready_timeout_ms);
    if (status != Subprocess::ReadStatus::kLine) {
      result.start_failed = status == Subprocess::ReadStatus::kClosed;
      return abort_game(p, failure_reason(*procs[p], status, "OK"));
    }
    if (trim(line) != "OK") return abort_game(p, "expected OK, got " + in_quotes(line));
    result.answered_ok[p] = true;
  }
  const std::string init = format_init_line(start);
  for (Player p : {kFirst, kSecond})
    if (!procs[p]->write_line(init)) return abort_game(p, crash_reason(*procs[p], "INIT"));

  Position pos = start;
  int start_bank_ms[2];
  for (Player p : {kFirst, kSecond}) start_bank_ms[p] = config.seat_time_ms[p] > 0 ? config.seat_time_ms[p] : config.time_ms;
  double bank_ms[2] = {double(start_bank_ms[kFirst]), double(start_bank_ms[kSecond])};
  for (int turn = 0; turn < config.max_turns && !pos.game_over(); ++turn) {
    const Player p = pos.to_move();
    const Player q = Player(1 - p);
    const double cpu_at_time = config.clock == ClockKind::kCpu ? process_group_cpu_ms(procs[p]->pid()) : 0;
    if (!procs[p]->write_line("TIME " + std::to_string(int(std::floor(bank_ms[p]))) + " " +
                              std::to_string(int(std::floor(bank_ms[q])))))
      return abort_game(p, crash_reason(*procs[p], "TIME"));
    std::string line;
    const int wall_limit_ms = config.move_wall_limit_ms > 0 ? config.move_wall_limit_ms : start_bank_ms[p];
    const MoveWait wait = config.clock == ClockKind::kCpu
                              ? wait_cpu(*procs[p], line, bank_ms[p], cpu_at_time, wall_limit_ms)
                              : wait_wall(*procs[p], line, bank_ms[p]);
    if (wait.idle)
      return abort_game(p, "timeout: no move within " + std::to_string(wall_limit_ms) +
                               " ms of wall time (the CPU clock's limit for an idle program)");
    if (wait.status != Subprocess::ReadStatus::kLine)
      return abort_game(p, failure_reason(*procs[p], wait.status, "a move"));
    const double elapsed = wait.charged_ms;
    bank_ms[p] -= elapsed;
    if (bank_ms[p] < 0) return abort_game(p, "timeout: time bank exhausted");
    const auto words = split_words(line);
    const auto move = parse_move_words(words, 0);
    if (!move || words.size() != 4) return abort_game(p, "unparsable output " + in_quotes(line));
    const char* why = nullptr;
    if (!pos.is_legal(*move, &why)) {
      std::string reason = why;
      if (reason == "the digits inside do not sum to 10")
        reason = "sum is " + std::to_string(pos.rect_sum(*move)) + ", not 10";
      return abort_game(p, "illegal move " + to_string(*move) + ": " + reason);
    }
    const int ms = int(std::lround(elapsed));
    log.moves.push_back({p, *move, ms});
    pos.apply(*move);
    if (!procs[q]->write_line("OPP " + to_string(*move) + " " + std::to_string(ms)))
      return abort_game(q, crash_reason(*procs[q], "OPP"));
  }
  for (auto& proc : procs) proc->write_line("FINISH");
  for (auto& proc : procs) proc->finish(500);
  log.finished = true;
  log.score_first = pos.score(kFirst);
  log.score_second = pos.score(kSecond);
  return result;
}

}  // namespace mushroom
