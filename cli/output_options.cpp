// The output options, each declared once here: how much a command says
// (--quiet, --verbose; util/log_level.h) and how it shows the progress of
// long work (--progress; util/progress.h), which parse_or_help adds and
// applies for every command (`mushroom bot`, which mushroom-bot links
// without main.cpp, calls the two itself); and --json FILE, the report for
// programs of the commands that write one.
#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <stdexcept>

#include "cli/command.h"
#include "util/log_level.h"
#include "util/output_path.h"
#include "util/progress.h"

namespace mushroom::cli {

namespace {
// Seconds between two plain progress lines (a log, CI, Slurm).
constexpr double kLineSeconds = 10;
}  // namespace

void add_output_options(cxxopts::Options& opts) {
  opts.add_options("output")(
      "progress", "how long work shows its progress on stderr: auto (one line redrawn in place on a terminal, else "
      "a plain line at most every 10 s), line (plain lines everywhere), off",
      cxxopts::value<std::string>())(
      "q,quiet", "say only errors, warnings and the results asked for: no progress, no log lines")(
      "v,verbose", "say more: each stage's figures as log lines too (self-play every few seconds, each logged "
      "training step, each fit game)");
}

void apply_output_options(const cxxopts::ParseResult& args) {
  const bool quiet = args.count("quiet") > 0, verbose = args.count("verbose") > 0;
  if (quiet && verbose) throw std::invalid_argument("--quiet and --verbose ask for opposite things: give one");
  set_log_level(quiet ? LogLevel::kQuiet : verbose ? LogLevel::kVerbose : LogLevel::kNormal);
  const bool given = args.count("progress") > 0;
  const ProgressMode mode = given ? parse_progress_mode(args["progress"].as<std::string>())
                            : quiet ? ProgressMode::kOff
                                    : ProgressMode::kAuto;
  Progress::Options options;
  options.style = progress_style(mode, isatty(STDERR_FILENO) == 1);
  options.line_seconds = kLineSeconds;
  winsize size{};
  if (options.style == ProgressStyle::kTerminal && ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0)
    options.width = size.ws_col;
  // The process's reporter for as long as it runs: at exit it is taken
  // back first, then destroyed (which clears a line left drawn).
  struct Installed {
    std::unique_ptr<Progress> reporter;
    ~Installed() { install_progress(nullptr); }
  };
  static Installed installed;
  install_progress(nullptr);
  installed.reporter = std::make_unique<Progress>(std::cerr, options);
  install_progress(installed.reporter.get());
}

void add_json_option(cxxopts::Options& opts, const std::string& what) {
  opts.add_options()("json", "also write " + what + " for programs to this file (its schema: docs/reports.md)",
                     cxxopts::value<std::string>());
}

std::string json_option(const cxxopts::ParseResult& args) {
  if (!args.count("json")) return "";
  const std::string path = args["json"].as<std::string>();
  check_output_path(path, "json");
  return path;
}

}  // namespace mushroom::cli
