#include "util/progress.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <streambuf>

#include "util/log_level.h"
#include "util/log_stamp.h"

namespace mushroom {

ProgressMode parse_progress_mode(const std::string& text) {
  if (text == "auto") return ProgressMode::kAuto;
  if (text == "line") return ProgressMode::kLine;
  if (text == "off") return ProgressMode::kOff;
  throw std::invalid_argument("--progress must be auto, line or off, got '" + text + "'");
}

ProgressStyle progress_style(ProgressMode mode, bool stream_is_terminal) {
  switch (mode) {
    case ProgressMode::kOff: return ProgressStyle::kOff;
    case ProgressMode::kLine: return ProgressStyle::kLine;
    case ProgressMode::kAuto: break;
  }
  return stream_is_terminal ? ProgressStyle::kTerminal : ProgressStyle::kLine;
}

double seconds_left(double elapsed, int64_t done_here, int64_t left) {
  if (done_here <= 0) return std::nan("");
  return std::max(0.0, elapsed) / double(done_here) * double(std::max<int64_t>(0, left));
}

// ---- the run's estimate ----

RunEstimate::RunEstimate(std::vector<RunStage> stages, int generations)
    : stages_(std::move(stages)), generations_(generations) {}

void RunEstimate::add(const std::string& stage, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return;
  auto& [total, count] = timed_[stage];
  total += seconds;
  ++count;
}

void RunEstimate::at_generation(int generation) { generation_ = generation; }

double RunEstimate::mean(const std::string& stage) const {
  const auto it = timed_.find(stage);
  return it == timed_.end() || it->second.second == 0 ? std::nan("") : it->second.first / it->second.second;
}

RunEstimate::Left RunEstimate::left(const std::string& stage, double stage_elapsed, double stage_left) const {
  Left out;
  // A stage never timed that has its own estimate now is taken to last its
  // time so far and that estimate, in the generations to come too.
  auto length_of = [&](const std::string& s) {
    const double m = mean(s);
    return !std::isfinite(m) && s == stage && std::isfinite(stage_left) ? stage_elapsed + stage_left : m;
  };
  auto count = [&](const std::string& s, double times) {
    if (times <= 0) return;
    const double m = length_of(s);
    if (std::isfinite(m)) out.seconds += m * times;
    else if (std::find(out.untimed.begin(), out.untimed.end(), s) == out.untimed.end()) out.untimed.push_back(s);
  };
  double now = stage_left;
  if (!std::isfinite(now)) {
    const double m = mean(stage);
    now = std::isfinite(m) ? m - stage_elapsed : 0;
    if (!std::isfinite(m)) count(stage, 1);
  }
  out.seconds += std::max(0.0, now);
  const auto it = std::find_if(stages_.begin(), stages_.end(), [&](const RunStage& s) { return s.name == stage; });
  const size_t next = it == stages_.end() ? 0 : size_t(it - stages_.begin()) + 1;
  for (size_t i = next; i < stages_.size(); ++i) count(stages_[i].name, stages_[i].runs_in(generation_) ? 1 : 0);
  for (const RunStage& s : stages_) {
    int later = 0;
    for (int g = generation_ + 1; g <= generations_; ++g) later += s.runs_in(g);
    count(s.name, later);
  }
  return out;
}

// ---- the line ----

namespace {

std::string rate_text(double per_second, const std::string& unit) {
  const std::string u = unit.empty() ? "items" : unit;
  char text[64];
  if (per_second >= 1) std::snprintf(text, sizeof text, "%.1f %s/s", per_second, u.c_str());
  else std::snprintf(text, sizeof text, "%.1f %s/min", per_second * 60, u.c_str());
  return text;
}

// The first `columns` characters of a UTF-8 line.
std::string cut_to(const std::string& line, int columns) {
  if (columns <= 0) return line;
  int seen = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;  // a continuation byte
    if (++seen > columns) return line.substr(0, i);
  }
  return line;
}

const char* const kSeparator = " \u00b7 ";  // " · "

}  // namespace

std::string format_progress_line(const ProgressSnapshot& s) {
  std::vector<std::string> parts;
  if (!s.position.empty()) parts.push_back(s.position);
  std::string where = s.stage;
  if (s.total > 0) where += " " + std::to_string(s.done) + "/" + std::to_string(s.total) + " " + s.unit;
  else if (s.done > 0) where += " " + std::to_string(s.done) + " " + s.unit;
  parts.push_back(where);
  if (!s.detail.empty()) parts.push_back(s.detail);
  if (s.ended) {
    parts.push_back("done in " + clock_text(s.elapsed));
  } else {
    if (std::isfinite(s.rate) && s.rate > 0) parts.push_back(rate_text(s.rate, s.unit));
    std::string times = "elapsed " + clock_text(s.elapsed);
    if (std::isfinite(s.stage_left)) times += ", left about " + clock_text(s.stage_left);
    parts.push_back(times);
  }
  if (s.in_run) {
    // A lower bound says which stages it leaves out; one of nothing at all
    // says only that.
    std::string untimed;
    for (size_t i = 0; i < s.run_left.untimed.size(); ++i) untimed += (i ? ", " : "") + s.run_left.untimed[i];
    if (s.run_left.complete()) parts.push_back("run: left about " + clock_text(s.run_left.seconds));
    else if (s.run_left.seconds >= 0.5)
      parts.push_back("run: left at least " + clock_text(s.run_left.seconds) + " (" + untimed + " not timed yet)");
    else
      parts.push_back("run: " + untimed + " not timed yet");
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? kSeparator : "") + parts[i];
  return out;
}

// ---- the reporter ----

namespace {
double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Progress::Progress(std::ostream& out, Options options, Clock clock)
    : out_(out), options_(options), clock_(clock ? std::move(clock) : Clock(steady_seconds)) {}

Progress::~Progress() {
  std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
}

void Progress::attach_run(RunEstimate* run) {
  std::lock_guard<std::mutex> lock(mutex_);
  run_ = run;
}

void Progress::set_position(const std::string& position) {
  std::lock_guard<std::mutex> lock(mutex_);
  position_ = position;
}

void Progress::begin(const std::string& stage, const std::string& unit) {
  std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
  stage_ = stage, unit_ = unit, detail_.clear();
  total_ = done_ = done_before_ = 0;
  started_ = clock_();
  said_ = false;
  active_ = true;
  // A stage's first line waits for its first estimate (at once when its
  // length is known from earlier ones).
  update_locked(false);
  publish_locked(clock_(), true);
}

void Progress::set_total(int64_t total, int64_t done_before) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  total_ = std::max<int64_t>(0, total);
  done_before_ = std::max<int64_t>(0, done_before);
  done_ = std::max(done_, done_before_);
  update_locked(false);
}

void Progress::expect(int64_t more) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  total_ += std::max<int64_t>(0, more);
  update_locked(false);
}

void Progress::add(int64_t items) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  done_ += items;
  update_locked(false);
}

void Progress::advance_to(int64_t done, const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  done_ = std::max(done, done_before_);
  if (!detail.empty()) detail_ = detail;
  update_locked(false);
}

void Progress::set_detail(const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  detail_ = detail;
  update_locked(false);
}

double Progress::end() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return std::nan("");
  const double now = clock_();
  const double elapsed = now - started_;
  const int64_t done_here = done_ - done_before_;
  double length = std::nan("");
  if (done_here > 0) length = elapsed * double(std::max(total_, done_)) / double(done_here);
  else if (total_ == 0 && done_ == 0 && elapsed >= 1) length = elapsed;
  if (run_ && std::isfinite(length)) run_->add(stage_, length);
  ProgressSnapshot s = snapshot_locked(now);
  s.ended = true;
  s.stage_left = 0;
  if (run_) s.run_left = run_->left(stage_, elapsed, 0);
  if (options_.style != ProgressStyle::kOff) {
    clear_locked();
    emit_locked(format_progress_line(s));
  }
  active_ = false;
  if (sink_) {
    last_publish_ = now;
    try {
      sink_(s);
    } catch (...) {
    }
  }
  return length;
}

void Progress::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  clear_locked();
  active_ = false;
  publish_locked(clock_(), true);
}

void Progress::note(const std::string& line) {
  if (quiet()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
  out_ << line << '\n' << std::flush;
  if (active_ && options_.style == ProgressStyle::kLine) {
    said_ = true;
    last_line_ = clock_();
  }
  if (active_ && options_.style == ProgressStyle::kTerminal) draw_locked(format_progress_line(snapshot_locked(clock_())));
}

void Progress::print_above(const std::function<void()>& write) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool redraw = drawn_;
  clear_locked();
  write();
  if (redraw && active_) draw_locked(format_progress_line(snapshot_locked(clock_())));
}

void Progress::publish_to(std::function<void(const ProgressSnapshot&)> sink, double every_seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = std::move(sink);
  publish_every_ = every_seconds;
  last_publish_ = -1e300;
}

ProgressSnapshot Progress::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return snapshot_locked(clock_());
}

ProgressSnapshot Progress::snapshot_locked(double now) const {
  ProgressSnapshot s;
  s.active = active_;
  s.position = position_;
  s.stage = stage_, s.unit = unit_, s.detail = detail_;
  s.done = done_, s.total = total_;
  s.in_run = run_ != nullptr;
  if (!active_) return s;
  s.elapsed = std::max(0.0, now - started_);
  const int64_t done_here = done_ - done_before_;
  if (done_here > 0 && s.elapsed > 0) s.rate = double(done_here) / s.elapsed;
  if (done_here > 0 && total_ > 0) {
    s.stage_left = seconds_left(s.elapsed, done_here, total_ - done_);
  } else if (run_) {
    const double m = run_->mean(stage_);
    if (std::isfinite(m)) s.stage_left = std::max(0.0, m - s.elapsed);
  }
  if (run_) s.run_left = run_->left(stage_, s.elapsed, s.stage_left);
  return s;
}

void Progress::update_locked(bool force) {
  const double now = clock_();
  publish_locked(now, false);
  if (!active_) return;
  switch (options_.style) {
    case ProgressStyle::kOff: return;
    case ProgressStyle::kTerminal:
      if (force || now - last_draw_ >= options_.redraw_seconds) {
        draw_locked(format_progress_line(snapshot_locked(now)));
        last_draw_ = now;
      }
      return;
    case ProgressStyle::kLine: {
      const ProgressSnapshot s = snapshot_locked(now);
      const bool first_estimate = !said_ && std::isfinite(s.stage_left);
      const bool due = said_ && now - last_line_ >= options_.line_seconds;
      const bool waited = !said_ && now - started_ >= options_.line_seconds;  // no estimate yet, but time passed
      if (force || first_estimate || due || waited) {
        emit_locked(format_progress_line(s));
        last_line_ = now;
        said_ = true;
      }
      return;
    }
  }
}

void Progress::draw_locked(const std::string& line) {
  out_ << '\r' << cut_to(line, options_.width > 1 ? options_.width - 1 : 0) << "\x1b[K" << std::flush;
  drawn_ = true;
}

void Progress::clear_locked() {
  if (!drawn_) return;
  out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

void Progress::emit_locked(const std::string& line) {
  const bool stamp = options_.style == ProgressStyle::kLine && options_.stamp;
  out_ << (stamp ? stamped(line) : line) << '\n' << std::flush;
}

void Progress::publish_locked(double now, bool force) {
  if (!sink_ || (!force && now - last_publish_ < publish_every_)) return;
  last_publish_ = now;
  try {
    sink_(snapshot_locked(now));
  } catch (...) {
    // The page is for people: a file that cannot be written stops nothing.
  }
}

// ---- the stage guard ----

ProgressStage::ProgressStage(Progress& progress, const std::string& stage, const std::string& unit)
    : progress_(progress) {
  progress_.begin(stage, unit);
}

ProgressStage::~ProgressStage() {
  if (open_) progress_.cancel();
}

double ProgressStage::finish() {
  open_ = false;
  return progress_.end();
}

// ---- the process's reporter ----

namespace {

std::ostream& discarding_stream() {
  static std::ostream stream(nullptr);  // no buffer: every write fails quietly
  return stream;
}

std::atomic<Progress*> installed{nullptr};

}  // namespace

Progress& progress() {
  static Progress silent(discarding_stream(), Progress::Options{});
  Progress* p = installed.load();
  return p ? *p : silent;
}

void install_progress(Progress* reporter) { installed.store(reporter); }

// ---- the log stream ----

class ProgressLogStream::Buffer : public std::streambuf {
 public:
  explicit Buffer(Progress& progress) : progress_(progress) {}
  ~Buffer() override {
    if (!line_.empty()) progress_.note(line_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    put(traits_type::to_char_type(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i) put(s[i]);
    return n;
  }

 private:
  void put(char c) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (c != '\n') {
      line_ += c;
      return;
    }
    progress_.note(line_);
    line_.clear();
  }
  Progress& progress_;
  std::mutex mutex_;
  std::string line_;
};

ProgressLogStream::ProgressLogStream(Progress& progress)
    : std::ostream(nullptr), buffer_(std::make_unique<Buffer>(progress)) {
  rdbuf(buffer_.get());
}

ProgressLogStream::~ProgressLogStream() { rdbuf(nullptr); }

}  // namespace mushroom
