#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <unistd.h>

#include "arena/arena.h"
#include "arena/games_file.h"
#include "cli/command.h"
#include "ladder/program_spec.h"
#include "mushroom/position_io.h"
#include "util/progress.h"
#include "util/text.h"

namespace fs = std::filesystem;

namespace mushroom::cli {
namespace {

// The official tool's setting.ini: INPUT, LOG, EXEC1, EXEC2 (KEY=VALUE lines;
// '#' or ';' starts a comment). Relative paths are taken from the ini's folder.
int run_setting_ini(const std::string& ini_path, const RefereeConfig& referee) {
  const fs::path base = fs::absolute(ini_path).parent_path();
  std::map<std::string, std::string> values;
  int line_no = 0;
  for (const std::string& raw : split_lines(read_file(ini_path))) {
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';' || line[0] == '[') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(ini_path + ":" + std::to_string(line_no) + ": expected KEY=VALUE");
    const std::string key(trim(line.substr(0, eq)));
    if (key != "INPUT" && key != "LOG" && key != "EXEC1" && key != "EXEC2")
      throw std::invalid_argument(ini_path + ":" + std::to_string(line_no) + ": unknown key '" + key +
                                  "' (known: INPUT, LOG, EXEC1, EXEC2)");
    values[key] = std::string(trim(line.substr(eq + 1)));
  }
  for (const char* key : {"INPUT", "LOG", "EXEC1", "EXEC2"})
    if (!values.count(key)) throw std::invalid_argument(ini_path + ": missing key " + key);
  auto resolve = [&](const std::string& p) { return fs::path(p).is_absolute() ? p : (base / p).string(); };
  const Position start = load_position_file(resolve(values["INPUT"]));
  const std::string work_dir = (base / ".mushroom-arena").string();
  // Commands run from the ini's folder, as the official tool runs them from its own.
  const std::string cd = "cd " + shell_quote(base.string()) + " && ";
  const RefereeResult result = referee_game(cd + resolve_program(values["EXEC1"], work_dir),
                                            cd + resolve_program(values["EXEC2"], work_dir), start, referee);
  write_file_atomic(resolve(values["LOG"]), format_game_log(result.log));
  if (result.log.aborted_by)
    std::cout << "ABORT " << player_name(*result.log.aborted_by) << " " << result.log.abort_reason << "\n";
  else
    std::cout << "SCOREFIRST " << result.log.score_first << "\nSCORESECOND " << result.log.score_second << "\n";
  std::cout << "log: " << resolve(values["LOG"]) << std::endl;
  return 0;
}

}  // namespace

int cmd_arena(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom arena",
      "Play two programs against each other over the contest protocol on paired boards (each board twice, sides "
      "swapped), timing them from the arena's side as the official tool does. A program is a shell command, "
      "'builtin:NAME[:key=value,...]' for one of our agents, or 'builtin:seed-greedy' for seed 000's Python bot. "
      "With --setting, plays the one game the official tool's setting.ini describes.");
  opts.add_options()("a,program-a", "program A (also --a)", cxxopts::value<std::string>())(
      "b,program-b", "program B (also --b)", cxxopts::value<std::string>())(
      "a-name", "label for A in the report", cxxopts::value<std::string>())(
      "b-name", "label for B in the report", cxxopts::value<std::string>())(
      "boards", "boards (each played twice) (default: 50; with --boards-file, all of its boards)",
      cxxopts::value<int>())(
      "boards-file", "play these boards instead of seeded ones: the official tool's INPUT format (10 lines of 17 "
      "digits 1-9), one board or several separated by blank lines, e.g. bench/balanced-boards.txt",
      cxxopts::value<std::string>())(
      "seed", "board seed", cxxopts::value<uint64_t>()->default_value("1"))(
      "board-mode", "uniform | sum10", cxxopts::value<std::string>()->default_value("uniform"))(
      "time-ms", "time bank per player per game", cxxopts::value<int>()->default_value("10000"))(
      "b-time-ms", "B's own time bank, for time odds (e.g. twice the time: --time-ms 2000 --b-time-ms 1000) "
      "[default: --time-ms]", cxxopts::value<int>())(
      "clock", "cpu (the default): a move costs the CPU time the program's whole process tree used from TIME to "
      "the reply, as the judge counts, fair at any --parallel; wall: the wall time, as the official local tool "
      "counts (the default with --setting)",
      cxxopts::value<std::string>())(
      "parallel", "games at once", cxxopts::value<int>()->default_value("1"))(
      "pin", "pin each game to one core: parallel slot k uses the k-th core this process may run on (its CPU mask: taskset, Slurm, cgroups)")(
      "log-dir", "write per-game logs, games.csv (the ladder's schema, docs/matches.md), arena.txt, report.txt and "
      "report.json here; running again with the same folder resumes the match, replaying only the games not in "
      "games.csv", cxxopts::value<std::string>())(

      "sprt", "elo0,elo1: the W/D/L (pentanomial) SPRT in logistic Elo; without --sprt-margin it stops the match "
      "when it decides (docs/matches.md)", cxxopts::value<std::string>())(
      "sprt-margin", "H0,H1: the margin test, in capped cells a game (e.g. 0,0.1); it stops the match when it "
      "decides. Whenever either test runs both are reported on the same games, the other at the rule's bounds "
      "(W/D/L 0,15; margin 0,0.1) unless given", cxxopts::value<std::string>())(
      "margin-cap", "cells: each game's margin is clipped to +-this for the margin test, and a forfeit counts as a "
      "loss by this many cells in every margin reported", cxxopts::value<double>()->default_value("4"))(
      "margin-min-games", "the margin test decides nothing before this many games (the calibration's guard, "
      "docs/matches.md)", cxxopts::value<int>()->default_value(std::to_string(kDefaultMarginMinGames)))(
      "sprt-min-games", "the W/D/L test decides nothing before this many games (the calibration's guard, "
      "docs/matches.md)", cxxopts::value<int>()->default_value(std::to_string(kDefaultSprtMinGames)))(
      "sprt-alpha", "both tests' false-positive rate", cxxopts::value<double>()->default_value("0.05"))(
      "sprt-beta", "both tests' false-negative rate", cxxopts::value<double>()->default_value("0.05"))(
      "setting", "official tool setting.ini (INPUT, LOG, EXEC1, EXEC2)", cxxopts::value<std::string>())(
      "h,help", "show this help");
  add_json_option(opts, "the report (report.json)");
  // cxxopts reads one-letter names only as -a/-b; accept the --a/--b spelling too.
  std::vector<std::string> rewritten(argv, argv + argc);
  std::vector<char*> new_argv;
  for (std::string& arg : rewritten) {
    for (const char* name : {"a", "b"}) {
      const std::string dashed = std::string("--") + name;
      if (arg == dashed) arg = std::string("--program-") + name;
      else if (arg.rfind(dashed + "=", 0) == 0) arg = std::string("--program-") + name + arg.substr(dashed.size());
    }
    new_argv.push_back(arg.data());
  }
  cxxopts::ParseResult args;
  if (parse_or_help(opts, int(new_argv.size()), new_argv.data(), args)) return 0;

  ArenaConfig config;
  config.referee.time_ms = args["time-ms"].as<int>();
  if (config.referee.time_ms < 1) throw std::invalid_argument("--time-ms must be positive");
  if (args.count("b-time-ms")) {
    config.b_time_ms = args["b-time-ms"].as<int>();
    if (config.b_time_ms < 1) throw std::invalid_argument("--b-time-ms must be positive");
  }
  const bool setting = args.count("setting") > 0;
  config.referee.clock = parse_clock(args.count("clock") ? args["clock"].as<std::string>() : setting ? "wall" : "cpu");
  if (setting) return run_setting_ini(args["setting"].as<std::string>(), config.referee);

  const std::string log_dir = args.count("log-dir") ? args["log-dir"].as<std::string>() : "";
  config.json_path = json_option(args);  // checked before any game
  const std::string work_dir =
      log_dir.empty() ? (fs::temp_directory_path() / ("mushroom-arena-" + std::to_string(getpid()))).string() : log_dir;
  const std::string spec[2] = {required(args, "a"), required(args, "b")};
  for (int side = 0; side < 2; ++side) {
    config.command[side] = resolve_program(spec[side], work_dir);
    const char* name_key = side == 0 ? "a-name" : "b-name";
    // A name goes in games.csv: the spec itself when it can (builtin:greedy),
    // else A or B.
    config.label[side] = args.count(name_key)                ? args[name_key].as<std::string>()
                         : valid_program_name(spec[side]) ? spec[side]
                                                          : std::string(side == 0 ? "A" : "B");
    if (!valid_program_name(config.label[side]))
      throw std::invalid_argument(std::string("--") + name_key + " '" + config.label[side] +
                                  "': use letters, digits and . _ - / : + = @ only");
  }
  if (config.label[0] == config.label[1]) config.label[0] += "-A", config.label[1] += "-B";
  config.boards = args.count("boards") ? args["boards"].as<int>() : 50;
  const BoardOptions boards = board_options(args);
  config.seed = boards.seed;
  config.board_mode = boards.mode;
  config.boards_given = boards.given;
  config.boards_source = boards.source;
  if (!config.boards_given.empty() && args.count("boards") == 0) config.boards = int(config.boards_given.size());
  config.parallel = args["parallel"].as<int>();
  config.pin = args.count("pin") > 0;
  config.log_dir = log_dir;
  config.margin_cap = args["margin-cap"].as<double>();
  check_margin_cap(config.margin_cap);
  const double alpha = args["sprt-alpha"].as<double>(), beta = args["sprt-beta"].as<double>();
  if (!(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5))
    throw std::invalid_argument("--sprt-alpha and --sprt-beta must be in (0, 0.5)");
  if (args.count("sprt") || args.count("sprt-margin")) {
    // The rule's bounds (docs/matches.md) for the test not named.
    Sprt sprt{0, 15, alpha, beta, args["sprt-min-games"].as<int>()};  // run_arena checks the guard before any game
    if (args.count("sprt")) {
      const std::string text = args["sprt"].as<std::string>();
      const auto comma = text.find(',');
      try {
        if (comma == std::string::npos) throw std::invalid_argument("");
        sprt.elo0 = std::stod(text.substr(0, comma));
        sprt.elo1 = std::stod(text.substr(comma + 1));
      } catch (const std::exception&) {
        throw std::invalid_argument("--sprt must be 'elo0,elo1', got '" + text + "'");
      }
      if (!(sprt.elo1 > sprt.elo0)) throw std::invalid_argument("--sprt needs elo0 < elo1");
    }
    MarginSprt margin;
    if (args.count("sprt-margin")) margin = parse_margin_bounds(args["sprt-margin"].as<std::string>());
    else if (margin.h1 > config.margin_cap)
      throw std::invalid_argument("--margin-cap " + format_fixed(config.margin_cap, 2) +
                                  " is below the H1 of the margin test reported beside --sprt (0,0.1 by default): "
                                  "give --sprt-margin H0,H1 within the cap");
    margin.alpha = alpha, margin.beta = beta;
    margin.min_games = args["margin-min-games"].as<int>();  // run_arena checks the test before any game
    config.sprt = sprt;
    config.margin_sprt = margin;
    config.stop_on_margin = args.count("sprt-margin") > 0;
  }
  ProgressStage stage(progress(), "arena", "games");
  ProgressLogStream game_lines(progress());
  const ArenaReport report = run_arena(config, game_lines);
  stage.finish();
  std::cout << format_report(config, report) << std::flush;
  if (log_dir.empty()) fs::remove_all(work_dir);
  return 0;
}

}  // namespace mushroom::cli
