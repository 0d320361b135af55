// The run's own clock: the wall time a run has spent, over all its sessions
// and roles, without the pauses between them. Each process that works on a
// run (the loop, or an actor, learner or gatekeeper role) keeps one
// interval file, RUN/clock/<start>-<pid>.txt ("start end", Unix seconds),
// and extends its end as it goes (at every log line, at most once a
// second); a kill loses only the time since the last extension. A process
// that was stopped (SIGSTOP, a suspended job) for more than kPauseSeconds
// between two log lines starts a new interval when it goes on, so the
// pause is not the run's time: every stage says something far more often. The run's
// time is the length of the union of every interval, so roles that run side
// by side count once. The dashboard draws the ladder's ratings against it
// ("rating by hour of training").
#pragma once
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

namespace mushroom::run {

class RunClock {
 public:
  static constexpr double kPauseSeconds = 300;
  // Starts this process's interval under run_root/clock. now: Unix seconds
  // (tests pass their own; null: the system clock).
  explicit RunClock(const std::filesystem::path& run_root, std::function<double()> now = nullptr);
  // Extends this process's interval to now (writes at most once a second,
  // atomically).
  void touch();

 private:
  void begin(double now);  // a new interval from now
  void write(double end) const;
  std::function<double()> now_;
  std::filesystem::path root_, file_;
  double start_ = 0, written_ = 0;
};

// The union of every interval under run_root/clock, in seconds (0 when
// there is none); a malformed interval file is named in a RunClockError.
double run_clock_seconds(const std::filesystem::path& run_root);

class RunClockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mushroom::run
