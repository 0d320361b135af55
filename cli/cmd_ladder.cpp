#include <filesystem>
#include <glob.h>
#include <iostream>
#include <thread>

#include "arena/cpu_affinity.h"
#include "cli/command.h"
#include "ladder/ladder.h"
#include "ladder/ladder_report.h"
#include "ladder/program_spec.h"
#include "util/progress.h"

namespace fs = std::filesystem;

namespace mushroom::cli {
namespace {

// "NAME=SPEC", or a bare "builtin:..." spec named after itself.
LadderProgram parse_program(const std::string& text, const std::string& work_dir) {
  std::string name, spec = text;
  const size_t eq = text.find('=');
  if (eq != std::string::npos && eq > 0 && text.substr(0, eq).find_first_of(": \t'\"") == std::string::npos) {
    name = text.substr(0, eq);
    spec = text.substr(eq + 1);
  } else if (text.rfind("builtin:", 0) == 0) {
    name = text.substr(8);
  } else {
    throw std::invalid_argument("--program '" + text + "': name a command with NAME=COMMAND");
  }
  if (spec.empty()) throw std::invalid_argument("--program '" + text + "' has no program after '='");
  return {name, resolve_program(spec, work_dir)};
}

// Expands a checkpoint glob; each file is named RUN/STEM (RUN: the folder
// holding models/, else the file's own folder).
std::vector<std::pair<std::string, std::string>> expand_models(const std::string& pattern) {
  glob_t found{};
  const int rc = glob(pattern.c_str(), 0, nullptr, &found);
  std::vector<std::string> paths;
  if (rc == 0)
    for (size_t i = 0; i < found.gl_pathc; ++i) paths.push_back(found.gl_pathv[i]);
  globfree(&found);
  if (paths.empty()) throw std::invalid_argument("--models '" + pattern + "': no file matches");
  std::vector<std::pair<std::string, std::string>> named;
  for (const std::string& path : paths) {
    fs::path folder = fs::absolute(path).parent_path();
    if (folder.filename() == "models") folder = folder.parent_path();
    named.push_back({folder.filename().string() + "/" + fs::path(path).stem().string(), path});
  }
  return named;
}

// Takes every "--NAME VALUE" and "--NAME=VALUE" out of args. Done before
// cxxopts, whose list options split values at commas, and program specs
// hold commas (builtin:alphabeta:depth=4,solver=false).
std::vector<std::string> take_repeated(std::vector<std::string>& args, const std::string& name) {
  std::vector<std::string> values, rest;
  const std::string flag = "--" + name;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == flag) {
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      values.push_back(args[++i]);
    } else if (args[i].rfind(flag + "=", 0) == 0) {
      values.push_back(args[i].substr(flag.size() + 1));
    } else {
      rest.push_back(args[i]);
    }
  }
  args = rest;
  return values;
}

}  // namespace

int cmd_ladder(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom ladder",
      "Rate many programs on one list: a round robin (or a gauntlet of one program against the rest) on paired "
      "boards, rated by maximum likelihood with draws and the first-move advantage, each rating with a 95% "
      "interval and one anchor program at 0. The ladder folder keeps every game: running again plays only the "
      "games still missing (new programs, more boards), and a kill loses at most the games in progress. Writes "
      "DIR/ratings.txt (the ratings, then head to head: each pair's W-D-L, score and likelihood of superiority), "
      "DIR/ratings.json (the same for programs, docs/reports.md), "
      "DIR/ladder.html (both tables, rating by generation, sample games in the viewer) and "
      "DIR/games.csv. A program is NAME=SPEC, where SPEC is 'builtin:NAME[:key=value,...]' or a shell command; a "
      "bare builtin spec is named after itself. Programs run from the binaries their commands name: do not rebuild "
      "those while a ladder plays, or its games forfeit at start-up.");
  opts.add_options()("dir", "the ladder folder", cxxopts::value<std::string>())(
      "program", "a program, NAME=SPEC (repeatable)", cxxopts::value<std::string>())(
      "models", "checkpoint files by glob, e.g. 'runs/NAME/models/gen-*.h5' (.h5: the nn agent; .eval: alphabeta "
      "with the learned evaluation), each named RUN/STEM and drawn by generation (repeatable)",
      cxxopts::value<std::string>())(
      "gauntlet", "play only this program against each of the others", cxxopts::value<std::string>())(
      "boards", "boards per pair of programs (each played twice, sides swapped); with --boards-file, its first N",
      cxxopts::value<int>()->default_value("20"))(
      "boards-file", "play these boards instead of seeded ones: the arena's --boards-file format (e.g. "
      "bench/balanced-boards.txt)", cxxopts::value<std::string>())("seed", "board seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "board-mode", "uniform | sum10", cxxopts::value<std::string>()->default_value("uniform"))(
      "time-ms", "time bank per player per game", cxxopts::value<int>()->default_value("10000"))(
      "clock", "cpu: charge the CPU time of each program's process tree, as the judge does (fair at any "
      "--parallel); wall: wall time from TIME to the reply", cxxopts::value<std::string>()->default_value("cpu"))(
      "parallel", "games at once (default: the cores this process may run on)", cxxopts::value<int>())(
      "pin", "pin each game to one core: parallel slot k uses the k-th core this process may run on (its CPU mask: taskset, Slurm, cgroups)")(
      "anchor", "the program rated 0 (default: the ladder's first program)", cxxopts::value<std::string>())(
      "report", "play nothing: rate the games so far and write the report")(

      "title", "the page's title", cxxopts::value<std::string>()->default_value("mushroom ladder"))(
      "h,help", "show this help");
  add_json_option(opts, "the ratings (ratings.json)");
  std::vector<std::string> words(argv, argv + argc);
  const std::vector<std::string> program_texts = take_repeated(words, "program");
  const std::vector<std::string> model_globs = take_repeated(words, "models");
  std::vector<char*> rest;
  for (std::string& w : words) rest.push_back(w.data());
  cxxopts::ParseResult args;
  if (parse_or_help(opts, int(rest.size()), rest.data(), args)) return 0;

  LadderConfig config;
  config.dir = required(args, "dir");
  LadderReportOptions report;
  report.title = args["title"].as<std::string>();
  if (args.count("anchor")) report.anchor = args["anchor"].as<std::string>();
  report.json_path = json_option(args);  // checked before any game
  const std::string work_dir = (fs::path(config.dir) / "work").string();
  for (const std::string& text : program_texts) config.programs.push_back(parse_program(text, work_dir));
  for (const std::string& pattern : model_globs) {
    LadderSeriesSpec series{pattern, {}};
    for (const auto& [name, path] : expand_models(pattern)) {
      config.programs.push_back({name, resolve_program(checkpoint_program(path), work_dir)});
      series.members.push_back({name, generation_of(path)});
    }
    report.series.push_back(series);
  }
  if (!args.count("report")) {
    if (args.count("gauntlet")) config.gauntlet = args["gauntlet"].as<std::string>();
    config.boards = args["boards"].as<int>();
    const BoardOptions boards = board_options(args);
    config.seed = boards.seed;
    config.board_mode = boards.mode;
    config.boards_given = boards.given;
    config.boards_source = boards.source;
    config.referee.time_ms = args["time-ms"].as<int>();
    if (config.referee.time_ms < 1) throw std::invalid_argument("--time-ms must be positive");
    config.referee.clock = parse_clock(args["clock"].as<std::string>());
    config.parallel = args.count("parallel") ? args["parallel"].as<int>() : int(allowed_cpus().size());
    config.pin = args.count("pin") > 0;
    ProgressStage stage(progress(), "ladder", "games");
    ProgressLogStream game_lines(progress());
    run_ladder(config, game_lines);
    stage.finish();
  } else if (!fs::exists(fs::path(config.dir) / "programs.txt")) {
    throw std::invalid_argument("--report: " + config.dir + " holds no ladder (no programs.txt)");
  }
  const LadderStandings standings = write_ladder_report(config.dir, report);
  std::cout << format_standings(standings) << "\n"
            << format_head_to_head(standings) << "page: " << (fs::path(config.dir) / "ladder.html").string() << "\n"
            << std::flush;
  return 0;
}

}  // namespace mushroom::cli
