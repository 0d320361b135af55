// Subcommands of the `mushroom` CLI. Each takes the arguments after its name
// (argv[0] is "mushroom <name>") and returns the process exit code.
#pragma once
#include <cxxopts.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "agents/agent_spec.h"
#include "mushroom/board_gen.h"
#include "mushroom/position.h"

namespace mushroom::cli {

struct Command {
  std::string name;
  std::string summary;
  std::function<int(int, char**)> run;
};

// The subcommands of one of the user's jobs (train, export and play, ...),
// under the heading `mushroom --help` gives them.
struct CommandGroup {
  std::string heading;
  std::vector<Command> commands;
};

// The one list of subcommands, by job, in the order `mushroom --help` and
// docs/cli.md list them (CTest cli_help_matches_guide holds the two alike).
const std::vector<CommandGroup>& command_groups();

// Parses argv with opts, which must define "help", and the options every
// command takes (add_output_options), which it applies. Prints the help
// text and returns true when --help was given; throws on bad input.
bool parse_or_help(cxxopts::Options& opts, int argc, char** argv, cxxopts::ParseResult& out);

// The options every command takes, declared once (cli/output_options.cpp):
// --progress auto|line|off, --quiet, --verbose. parse_or_help adds them to
// every command's table and applies them: the log level
// (util/log_level.h) and the process's progress reporter on stderr
// (util/progress.h). Throws naming a bad --progress, or --quiet with
// --verbose.
void add_output_options(cxxopts::Options& opts);
void apply_output_options(const cxxopts::ParseResult& args);
// --json FILE: the report for programs (docs/reports.md), one spelling on
// every command that writes one (arena, ladder, bench). `what`: what it holds.
void add_json_option(cxxopts::Options& opts, const std::string& what);
// Its path, checked before any work (a missing or unwritable folder is
// refused by name, util/output_path.h); "" when not given.
std::string json_option(const cxxopts::ParseResult& args);

// Prints a log line of a long job on stdout, after its UTC time stamp
// (util/log_stamp.h), and flushes it; above the progress line on a
// terminal, and not at all with --quiet.
void print_line(const std::string& line);

// A required option's value; throws std::invalid_argument naming it.
std::string required(const cxxopts::ParseResult& args, const std::string& name);

// The run config given as --config (required): a file, or a shipped config
// by name found in the data roots (util/shipped_file.h, find_config).
std::string config_file(const cxxopts::ParseResult& args);
// The end of every --config option's help, saying how a config is found.
inline constexpr const char* kConfigLookupHelp =
    "; a file, or a shipped config by name (eval-cpu: configs/eval-cpu.toml in the working folder, "
    "$MUSHROOM_DATA or the installed share/mushroom)";

// Adds the repeatable key=value agent options given under `name` to options;
// throws std::invalid_argument naming a malformed pair.
void read_agent_options(const cxxopts::ParseResult& args, const std::string& name, std::map<std::string, std::string>& out);

// Old spellings stay accepted: when --OLD was given, says on stderr what to
// write instead (--NOW) and returns true. Both given is an error naming them.
bool old_spelling_given(const cxxopts::ParseResult& args, const std::string& command, const std::string& old_name,
                        const std::string& now_name);
// An option's value under its name, or under its old spelling (noted as above).
template <class T>
T value_or_old_spelling(const cxxopts::ParseResult& args, const std::string& command, const std::string& old_name,
                        const std::string& now_name) {
  return old_spelling_given(args, command, old_name, now_name) ? args[old_name].as<T>() : args[now_name].as<T>();
}

// The agent spec (agents/agent_spec.h) given as --OPTION, or `fallback` when
// it is absent, with the options of the old spelling --OLD_OPTIONS key=value
// merged in (noted on stderr, naming the spec to write instead). Its files
// (eval, probcut, model, policy) that are not in the working folder are
// looked for in the data roots, as the defaults are (shipped_or_given).
AgentSpec agent_spec_option(const cxxopts::ParseResult& args, const std::string& command, const std::string& option,
                            const std::string& old_options, const AgentSpec& fallback);

// The boards a match plays (arena, ladder): seeded ones from --seed and
// --board-mode, or those of --boards-file (arena/boards_file.h), read and
// checked here; with a file, --seed and --board-mode are refused by name.
struct BoardOptions {
  uint64_t seed = 1;
  BoardMode mode = BoardMode::kUniform;
  std::vector<Position> given;  // the file's boards; empty for seeded boards
  std::string source;           // the file's name and hash
};
BoardOptions board_options(const cxxopts::ParseResult& args);

int cmd_moves(int argc, char** argv);
int cmd_perft(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_bench_eval(int argc, char** argv);
int cmd_bench_endgame(int argc, char** argv);
int cmd_play(int argc, char** argv);
int cmd_positions(int argc, char** argv);
int cmd_bot(int argc, char** argv);
int cmd_arena(int argc, char** argv);
int cmd_ladder(int argc, char** argv);
int cmd_elo_curve(int argc, char** argv);
int cmd_balanced_boards(int argc, char** argv);
int cmd_replay(int argc, char** argv);
int cmd_time_use(int argc, char** argv);
int cmd_solve(int argc, char** argv);
int cmd_probcut_fit(int argc, char** argv);
int cmd_solve_endgame(int argc, char** argv);
int cmd_tonga(int argc, char** argv);
int cmd_export_bot(int argc, char** argv);
int cmd_view(int argc, char** argv);
int cmd_analyze(int argc, char** argv);
int cmd_dashboard(int argc, char** argv);
// LibTorch builds only:
int cmd_bench_nn(int argc, char** argv);
int cmd_bench_labels(int argc, char** argv);
int cmd_selfplay(int argc, char** argv);
int cmd_relabel(int argc, char** argv);
int cmd_train(int argc, char** argv);
int cmd_run(int argc, char** argv);
int cmd_config(int argc, char** argv);
int cmd_distill(int argc, char** argv);
int cmd_grade(int argc, char** argv);

}  // namespace mushroom::cli
