// The `mushroom` command line: one binary, one subcommand per job.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#if defined(__GLIBC__)  // defined by the headers above on glibc systems
#include <malloc.h>
#endif

#include "arena/boards_file.h"
#include "cli/command.h"
#include "nn/nn_agent.h"
#include "util/data_roots.h"
#include "util/log_level.h"
#include "util/log_stamp.h"
#include "util/progress.h"
#include "util/shipped_file.h"
#include "util/text.h"
#include "util/version.h"
#ifdef MUSHROOM_WITH_TORCH
#include "nn/torch_info.h"
#endif

namespace mushroom::cli {

// LibTorch frees and allocates tensors of a few MiB on every training step.
// Under glibc's adaptive thresholds those pages can go back to the kernel and
// fault in again each time: a long `mushroom run` then spent a third of its
// CPU in page faults and trained at 17-20 steps/s instead of ~50. Fixed
// thresholds keep freed memory in the process.
void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

const std::vector<CommandGroup>& command_groups() {
  static const std::vector<CommandGroup> all = {
      {"train",
       {
#ifdef MUSHROOM_WITH_TORCH
           {"run", "the whole resumable loop: self-play, train, gate, evaluate, plot", cmd_run},
#endif
           {"dashboard", "write a run directory's dashboard.html and plots/run.png", cmd_dashboard},
#ifdef MUSHROOM_WITH_TORCH
           {"config", "print every run-config key at its default, with its range and help", cmd_config},
           {"selfplay", "play self-play games into HDF5 training shards", cmd_selfplay},
           {"relabel", "label the learned evaluation's data again with other label settings", cmd_relabel},
           {"train", "train a model on self-play shards", cmd_train},
           {"distill", "train a small student net on a teacher's outputs (for export-bot)", cmd_distill},
#endif
           {"probcut-fit", "fit Multi-ProbCut's shallow-to-deep prediction for an evaluation", cmd_probcut_fit},
       }},
      {"export and play",
       {
           {"export-bot", "write the contest submission: one self-contained C++ file", cmd_export_bot},
           {"bot", "play one game over the contest protocol on stdin/stdout", cmd_bot},
           {"play", "play one game between two agents and print it", cmd_play},
       }},
      {"evaluate",
       {
           {"arena", "play programs against each other on paired boards", cmd_arena},
           {"ladder", "rate many programs on one list: round robin or gauntlet, resumable", cmd_ladder},
           {"elo-curve", "the shipped evaluations' real-clock Elo, chained by the matches that shipped them: table and page",
            cmd_elo_curve},
           {"balanced-boards", "write a boards file of boards on which the first seat does not decide the game",
            cmd_balanced_boards},
           {"analyze", "where was a game lost: the bot's evaluation before and after every move", cmd_analyze},
           {"view", "turn a game log into a self-contained HTML viewer page", cmd_view},
           {"replay", "print a game log board by board", cmd_replay},
           {"time-use", "where the clock went: the bank used a game and the time of the moves by mushrooms left", cmd_time_use},
       }},
      {"inspect the engine",
       {
           {"moves", "list the legal moves of a position", cmd_moves},
           {"perft", "count move sequences of a given depth", cmd_perft},
           {"solve-endgame", "prove a mushroom position's exact margin: the line, nodes and time", cmd_solve_endgame},
           {"bench", "time the engine: move generator, search, evaluation, endgame solver, labels, net", cmd_bench},
           {"positions", "write a position set from seeded playouts or game logs", cmd_positions},
       }},
      {"the seed games",
       {
           {"solve", "exact solvers for seeds 001, 003, 004 in judge format", cmd_solve},
           {"tonga", "PseudoTonga (seed 002): our agent against the server's fixed strategy", cmd_tonga},
#ifdef MUSHROOM_WITH_TORCH
           {"grade", "grade a blockgame net against the exact solver (winning-move and value accuracy)", cmd_grade},
#endif
       }},
  };
  return all;
}

namespace {

// The first name cxxopts quoted in its message (‘x’ or 'x').
std::string quoted_in(const std::string& message) {
  for (const auto& [open, close] : {std::pair<std::string, std::string>{"\u2018", "\u2019"}, {"'", "'"}}) {
    const size_t from = message.find(open);
    if (from == std::string::npos) continue;
    const size_t to = message.find(close, from + open.size());
    if (to != std::string::npos) return message.substr(from + open.size(), to - from - open.size());
  }
  return "";
}

std::vector<std::string> long_option_names(const cxxopts::Options& opts) {
  std::vector<std::string> names;
  for (const std::string& group : opts.groups())
    for (const cxxopts::HelpOptionDetails& o : opts.group_help(group).options)
      for (const std::string& name : o.l) names.push_back(name);
  return names;
}

// The option that was given `value` on the command line ("" when unclear).
std::string option_given(int argc, char** argv, const std::string& value) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("-", 0) != 0) continue;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos && arg.substr(eq + 1) == value) return arg.substr(0, eq);
    if (eq == std::string::npos && i + 1 < argc && argv[i + 1] == value) return arg;
  }
  return "";
}

}  // namespace

bool parse_or_help(cxxopts::Options& opts, int argc, char** argv, cxxopts::ParseResult& out) {
  // cxxopts's own messages name neither the option whose value failed nor
  // the option that was meant: these do.
  add_output_options(opts);
  try {
    out = opts.parse(argc, argv);
  } catch (const cxxopts::exceptions::no_such_option& e) {
    const std::string name = quoted_in(e.what());
    const std::string near = nearest_spelling(name, long_option_names(opts));
    throw std::invalid_argument("unknown option " + std::string(name.size() > 1 ? "--" : "-") + name +
                                (near.empty() ? "" : "; did you mean --" + near + "?") + " (see --help)");
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    const std::string value = quoted_in(e.what());
    const std::string option = option_given(argc, argv, value);
    throw std::invalid_argument((option.empty() ? std::string("an option") : option) + ": '" + value +
                                "' is not a value it takes (see --help)");
  }
  if (out.count("help")) {
    std::cout << opts.help() << std::endl;
    return true;
  }
  if (!out.unmatched().empty())
    throw std::invalid_argument("unexpected argument '" + out.unmatched().front() + "'");
  apply_output_options(out);
  return false;
}

void print_line(const std::string& line) {
  if (quiet()) return;
  const std::string text = mushroom::stamped(line);
  progress().print_above([&] {
    std::printf("%s\n", text.c_str());
    std::fflush(stdout);
  });
}

std::string required(const cxxopts::ParseResult& args, const std::string& name) {
  if (!args.count(name)) throw std::invalid_argument("missing required option --" + name);
  return args[name].as<std::string>();
}

std::string config_file(const cxxopts::ParseResult& args) { return find_config(required(args, "config")); }

bool old_spelling_given(const cxxopts::ParseResult& args, const std::string& command, const std::string& old_name,
                        const std::string& now_name) {
  if (!args.count(old_name)) return false;
  if (args.count(now_name))
    throw std::invalid_argument("--" + old_name + " is the old spelling of --" + now_name + ": give only --" + now_name);
  std::cerr << "mushroom " << command << ": --" << old_name << " is an old spelling; write --" << now_name << std::endl;
  return true;
}

BoardOptions board_options(const cxxopts::ParseResult& args) {
  BoardOptions out;
  out.seed = args["seed"].as<uint64_t>();
  const std::string mode = args["board-mode"].as<std::string>();
  if (mode != "uniform" && mode != "sum10") throw std::invalid_argument("--board-mode must be uniform or sum10");
  out.mode = mode == "sum10" ? BoardMode::kSumMultipleOf10 : BoardMode::kUniform;
  if (args.count("boards-file")) {
    for (const char* seeded : {"seed", "board-mode"})
      if (args.count(seeded))
        throw std::invalid_argument(std::string("--") + seeded + " chooses seeded boards; it has no effect with --boards-file");
    const BoardsFile file = read_boards_file(args["boards-file"].as<std::string>());
    out.given = file.boards;
    out.source = file.source;
  }
  return out;
}

// The commit, the build type, what LibTorch (and CUDA) the build has, and
// where the shipped defaults come from (util/data_roots.h).
static void print_version() {
  std::string origin;
  try {
    origin = mushroom::defaults_origin();
  } catch (const std::exception& e) {  // a $MUSHROOM_DATA that is not a folder
    origin = std::string("defaults: ") + e.what();
  }
  std::cout << mushroom::build_version() << ", "
#ifdef MUSHROOM_WITH_TORCH
            << mushroom::nn::torch_build_info()
#else
            << "without LibTorch (-DMUSHROOM_WITH_TORCH=OFF), CUDA: not available"
#endif
            << "\n" << origin << std::endl;
}

// The commands under their jobs' headings, each summary in one column
// however long the longest name.
static void print_usage() {
  size_t width = 0;
  for (const CommandGroup& group : command_groups())
    for (const Command& c : group.commands) width = std::max(width, c.name.size());
  std::cout << "usage: mushroom <command> [options]\n       mushroom --version\n";
  for (const CommandGroup& group : command_groups()) {
    std::cout << "\n" << group.heading << ":\n";
    for (const Command& c : group.commands)
      std::cout << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n";
  }
  std::cout << "\n'mushroom <command> --help' describes a command's options.\n";
}

}  // namespace mushroom::cli

int main(int argc, char** argv) {
  using namespace mushroom::cli;
  keep_freed_memory();
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_usage();
    return argc < 2 ? 2 : 0;
  }
  if (std::string(argv[1]) == "--version" || std::string(argv[1]) == "version") {
    print_version();
    return 0;
  }
  mushroom::nn::register_nn_agent();
  const std::string name = argv[1];
  for (const CommandGroup& group : command_groups())
    for (const Command& c : group.commands) {
      if (c.name != name) continue;
      std::string program = "mushroom " + name;
      argv[1] = program.data();
      try {
        return c.run(argc - 1, argv + 1);
      } catch (const std::exception& e) {
        std::cerr << "mushroom " << name << ": error: " << e.what() << std::endl;
        return 2;
      }
    }
  std::cerr << "mushroom: unknown command '" << name << "'\n";
  print_usage();
  return 2;
}
