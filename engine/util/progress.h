// The one progress reporter of every long stage: self-play, relabel,
// training, the Multi-ProbCut fit, the gate, the ladder, the arena and a
// whole run. Each stage reports where it is ("generation 3 of 30 · train
// 1200/4000 steps"), its rate, the time it has run and, at its pace so far,
// the time it has left; in a run, also the time the whole run has left,
// from the lengths of the stages already done (RunEstimate).
//
// On a terminal the reporter redraws one line in place, as cargo and pip do;
// elsewhere (a log file, CI, Slurm) it prints a plain line, with no carriage
// return and no escape code, when a stage's first estimate is known and then
// at most every line_seconds, and a last line when the stage ends.
// --progress=auto|line|off chooses (cli/output_options.cpp).
//
// Who does what: the caller of a stage (a command, or the run loop) begins
// and ends it; the code doing the work says how much there is and how much
// is done (set_total, expect, add, advance_to) on the process's reporter,
// progress(), and those calls do nothing when no stage is under way.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace mushroom {

// --progress: auto (a redrawn line on a terminal, plain lines elsewhere),
// line (plain lines everywhere), off.
enum class ProgressMode { kAuto, kLine, kOff };
// Throws std::invalid_argument naming --progress and the text.
ProgressMode parse_progress_mode(const std::string& text);

enum class ProgressStyle { kTerminal, kLine, kOff };
ProgressStyle progress_style(ProgressMode mode, bool stream_is_terminal);

// Seconds left at the pace so far: elapsed / done_here * left, from the
// items done in this process (not those a resume read back). Never
// negative; NaN before any item is done.
double seconds_left(double elapsed, int64_t done_here, int64_t left);

// A stage of each generation of a run, in every `every`-th generation
// (the ladder's, say: [ladder] every).
struct RunStage {
  RunStage(std::string stage_name, int every_generations = 1)
      : name(std::move(stage_name)), every(every_generations) {}
  RunStage(const char* stage_name) : name(stage_name) {}
  std::string name;
  int every = 1;
  bool runs_in(int generation) const { return every > 0 && generation % every == 0; }
};

// The whole run's estimate: each generation's stages in order, and the
// lengths of the stages done so far, in this process or, on a resume, in
// the run's records (metrics/gen-NNNN.json, stage_seconds). A stage is
// expected to take its mean length so far.
class RunEstimate {
 public:
  // generations: the run's last generation.
  RunEstimate(std::vector<RunStage> stages, int generations);
  // A finished stage's whole length in seconds.
  void add(const std::string& stage, double seconds);
  // The generation now under way; those after it up to the last are to run.
  void at_generation(int generation);
  double mean(const std::string& stage) const;  // NaN when never timed
  int generation() const { return generation_; }

  struct Left {
    double seconds = 0;                 // the stages with a length known
    std::vector<std::string> untimed;  // stages still to run that were never timed (not in `seconds`)
    bool complete() const { return untimed.empty(); }
  };
  // What is left of the run while `stage` runs: its own estimate
  // stage_left (when NaN: its mean length less stage_elapsed, never below
  // 0), the generation's later stages, and the stages of the later
  // generations, each in the generations it runs in (the stage now
  // running, when never timed before, at its time so far and stage_left).
  // A stage outside the plan counts as if before the generation's first.
  Left left(const std::string& stage, double stage_elapsed, double stage_left) const;

 private:
  std::vector<RunStage> stages_;
  int generations_ = 0, generation_ = 1;
  std::map<std::string, std::pair<double, int>> timed_;  // stage: total seconds, count
};

// What the reporter shows now: for a line, a page or a file.
struct ProgressSnapshot {
  bool active = false;       // a stage is under way
  std::string position;      // "generation 3 of 30"
  std::string stage, unit;   // "train", "steps"
  std::string detail;        // the stage's own figures ("loss 0.1234")
  int64_t done = 0, total = 0;  // total 0: not known
  double elapsed = 0;        // the stage's seconds in this process
  double rate = std::nan("");        // items a second in this process
  double stage_left = std::nan("");  // seconds
  bool ended = false;        // the stage has ended (its last line)
  bool in_run = false;       // a run's estimate is attached
  RunEstimate::Left run_left;
};

// "generation 3 of 30 · train 1200/4000 steps · loss 0.1234 · 21.4 steps/s ·
// elapsed 0:00:56, left about 0:02:11 · run: left about 2:41:00"; an ended
// stage says "done in 0:03:07" instead of its times; a run whose stages to
// come were not all timed yet says "run: left at least ... (gate not timed
// yet)", or "run: train, gate not timed yet" when it knows nothing else.
std::string format_progress_line(const ProgressSnapshot& s);

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic
  struct Options {
    ProgressStyle style = ProgressStyle::kOff;
    double line_seconds = 10;     // kLine: at most one status line this often
    double redraw_seconds = 0.1;  // kTerminal: at most one redraw this often
    int width = 0;                // kTerminal: the line is cut to fit (0: never cut)
    bool stamp = true;            // kLine: each line starts with its UTC time stamp
  };
  // out: where the lines go (stderr for the CLI). clock: null, the steady clock.
  Progress(std::ostream& out, Options options, Clock clock = nullptr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The run whose stages follow (null: none); each stage's line then also
  // says what is left of the run, and end() adds the stage's length to it.
  void attach_run(RunEstimate* run);
  // Shown before each stage ("generation 3 of 30"); "" for none.
  void set_position(const std::string& position);

  // Begins a stage (a stage still under way is cancelled): its name and
  // the unit of its items; set_total and expect say how many.
  void begin(const std::string& stage, const std::string& unit);
  // The stage's items in all, and those done before this process (read
  // back on a resume: they count as done, not in the rate).
  void set_total(int64_t total, int64_t done_before = 0);
  void expect(int64_t more);  // more items (a match that starts within the stage)
  void add(int64_t items = 1);
  void advance_to(int64_t done, const std::string& detail = "");  // done counts those before too
  void set_detail(const std::string& detail);
  // Ends the stage: its last line, and its whole length (elapsed, or at
  // this process's pace for all its items when a resume had done some)
  // added to the run. Returns that length, NaN when the stage did nothing
  // here: no item done, or without items under a second (a stage a resume
  // found finished).
  double end();
  // Ends the stage without timing it (it failed).
  void cancel();

  // A log line: above the redrawn line on a terminal, as is elsewhere; it
  // stands for a status line in the line style (it is not printed when
  // quiet, util/log_level.h).
  void note(const std::string& line);
  // Runs `write` (which prints to another stream, stdout say) with the
  // redrawn line cleared first and drawn again after.
  void print_above(const std::function<void()>& write);

  // Calls `sink` with the snapshot when a stage begins or ends, and at most
  // every `every_seconds` between (the run's progress.json); null: none.
  // A sink that throws is ignored.
  void publish_to(std::function<void(const ProgressSnapshot&)> sink, double every_seconds);

  ProgressSnapshot snapshot() const;
  ProgressStyle style() const { return options_.style; }

 private:
  ProgressSnapshot snapshot_locked(double now) const;
  void update_locked(bool force);
  void clear_locked();
  void draw_locked(const std::string& line);
  void emit_locked(const std::string& line);
  void publish_locked(double now, bool force);
  void finish_locked();

  mutable std::mutex mutex_;
  std::ostream& out_;
  Options options_;
  Clock clock_;
  RunEstimate* run_ = nullptr;
  std::string position_, stage_, unit_, detail_;
  bool active_ = false;
  int64_t total_ = 0, done_ = 0, done_before_ = 0;
  double started_ = 0, last_line_ = -1e300, last_draw_ = -1e300, last_publish_ = -1e300;
  bool said_ = false;   // kLine: a line said where this stage is
  bool drawn_ = false;  // kTerminal: a status line is on the screen
  std::function<void(const ProgressSnapshot&)> sink_;
  double publish_every_ = 10;
};

// A stage begun on construction and cancelled on destruction unless
// finish() ended it: an exception leaves no stage under way.
class ProgressStage {
 public:
  ProgressStage(Progress& progress, const std::string& stage, const std::string& unit);
  ~ProgressStage();
  double finish();  // Progress::end()

 private:
  Progress& progress_;
  bool open_ = true;
};

// Runs `work` as the stage `stage` (its items counted in `unit`) and
// returns what it returns; the stage's length, when it has one (end()),
// goes in `timed` (null: nowhere). A stage whose work throws is cancelled.
template <class Work>
auto run_stage(Progress& progress, const std::string& stage, const std::string& unit, Work&& work,
               std::vector<std::pair<std::string, double>>* timed = nullptr) {
  ProgressStage on(progress, stage, unit);
  auto result = work();
  if (const double seconds = on.finish(); timed && std::isfinite(seconds)) timed->emplace_back(stage, seconds);
  return result;
}

// The process's reporter, which the stages deep in the code report to:
// silent until one is installed (the CLI installs its own). Not owned.
Progress& progress();
void install_progress(Progress* reporter);  // null: the silent one again

// An ostream whose complete lines go to a reporter's note(): for code that
// writes its log lines to a stream (the arena's and the ladder's games).
class ProgressLogStream : public std::ostream {
 public:
  explicit ProgressLogStream(Progress& progress);
  ~ProgressLogStream() override;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
};

}  // namespace mushroom
