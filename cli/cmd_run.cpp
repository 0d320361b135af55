// `mushroom run`: the whole resumable loop (LibTorch builds).
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "arena/program_command.h"  // shell_quote
#include "cli/command.h"
#include "nn/model_file.h"
#include "run/roles.h"
#include "run/run_config.h"
#include "run/run_loop.h"
#include "selfplay/selfplay_runner.h"
#include "train/trainer.h"
#include "util/text.h"

namespace mushroom::cli {

namespace {

// Ctrl-C: a word on what the run keeps and how to go on, then the default
// action, so the process still ends by SIGINT. Nothing finished is lost:
// every stage's result is written under its final name only when complete.
char interrupt_note[4096];
size_t interrupt_note_size = 0;

extern "C" void on_interrupt(int) {
  // write(2) only: the handler may run in the middle of anything.
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, interrupt_note, interrupt_note_size);
  std::raise(SIGINT);  // SA_RESETHAND restored the default: delivered once the handler returns
}

// The note for this run, and the handler that prints it.
void say_what_is_kept_on_interrupt(const std::string& dir, int argc, char** argv) {
  std::string command = argv[0];  // "mushroom run"
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789-_./=:,+@") == std::string::npos;
    command += " " + (plain ? word : shell_quote(word));
  }
  const std::string note = "\nmushroom run: stopped (Ctrl-C). Kept in " + dir +
                           ": every finished generation, and of the one under way its finished stages and the "
                           "self-play games already written to shards (only the games in progress are lost). To "
                           "resume where it stopped, run the same command again:\n  " + command + "\n";
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  if (before.sa_handler == SIG_IGN) return;  // started with Ctrl-C ignored (nohup, a background job): it stays so
  interrupt_note_size = std::min(note.size(), sizeof interrupt_note);
  std::memcpy(interrupt_note, note.data(), interrupt_note_size);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
}

}  // namespace

int cmd_run(int argc, char** argv) {
  cxxopts::Options opts("mushroom run",
                        "Runs the whole loop (self-play, train, gate, evaluate, plot) for the config's generations in "
                        "--dir. Killed at any moment and started again with the same command, it resumes where it "
                        "was. Writes --dir/plots/run.png and per-generation records in --dir/metrics/. Each stage "
                        "says where it is and how long it and the whole run have left (on stderr, --progress), from "
                        "the stages already done (on a resume, those the records timed); --dir/progress.json and "
                        "--dir/dashboard.html show the same.");
  opts.add_options()("config", std::string("run config (TOML), e.g. configs/cpu-small.toml") + kConfigLookupHelp, cxxopts::value<std::string>())(
      "set", "section.key=value: override one config key, checked as the file is (repeatable; e.g. --set "
      "selfplay.device=cuda --set selfplay.backend=torch); the run saves them with its config",
      cxxopts::value<std::vector<std::string>>())(
      "dir", "run directory, e.g. runs/NAME", cxxopts::value<std::string>())(
      "generations", "stop after this many generations (default: run.generations)", cxxopts::value<int>())(
      "parallel", "games at once in gating, evaluation and the ladder", cxxopts::value<int>()->default_value("2"))(
      "threads", "old spelling of --parallel", cxxopts::value<int>())(
      "init", "start from this model (e.g. models/default.h5) instead of from nothing", cxxopts::value<std::string>())(
      "role",
      "all: the whole loop in this process. actor, learner or gatekeeper: that stage alone, meeting the others "
      "through --dir (run/roles.h; deploy/slurm/ starts them on a cluster)",
      cxxopts::value<std::string>()->default_value("all"))(
      "actor-id", "actor: its index, unique within the run (default: $SLURM_ARRAY_TASK_ID, else 0)",
      cxxopts::value<int>())("chunk-games", "actor: games between looks for a newly promoted model "
                                            "(default: a quarter of selfplay.games)",
                             cxxopts::value<int>())(
      "poll-seconds", "how often a waiting role looks at --dir again", cxxopts::value<double>()->default_value("5"))(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  run::RunOptions options;
  options.config_path = config_file(args);
  if (args.count("set")) options.overrides = args["set"].as<std::vector<std::string>>();
  run::load_run_config(options.config_path, options.overrides);  // every role: fail before starting
  options.dir = required(args, "dir");
  options.generations = args.count("generations") ? args["generations"].as<int>() : 0;
  if (options.generations < 0) throw std::invalid_argument("--generations must be positive");
  options.threads = std::max(1, value_or_old_spelling<int>(args, "run", "threads", "parallel"));
  options.log = print_line;
  if (args.count("init")) options.init_model = args["init"].as<std::string>();
  run::RoleOptions role;
  role.run = options;
  role.role = run::parse_role(args["role"].as<std::string>());
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  role.actor.host = host;
  if (args.count("actor-id")) role.actor.index = args["actor-id"].as<int>();
  else if (const char* task = std::getenv("SLURM_ARRAY_TASK_ID"); task && !parse_int(task, role.actor.index))
    throw std::invalid_argument(std::string("SLURM_ARRAY_TASK_ID = '") + task + "' is not a whole number");
  role.chunk_games = args.count("chunk-games") ? args["chunk-games"].as<int>() : 0;  // 0: the quarter
  if (role.chunk_games < 0) throw std::invalid_argument("--chunk-games must not be negative");
  role.poll_seconds = args["poll-seconds"].as<double>();
  if (!(role.poll_seconds > 0)) throw std::invalid_argument("--poll-seconds must be positive");
  say_what_is_kept_on_interrupt(options.dir, argc, argv);
  run::run_role(role);
  if (role.role == run::Role::kAll)
    print_line("plot: " + (std::filesystem::path(options.dir) / "plots" / "run.png").string());
  return 0;
}

}  // namespace mushroom::cli
