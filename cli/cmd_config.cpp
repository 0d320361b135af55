#include <iostream>

#include "cli/command.h"
#include "train/run_config.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_config(int argc, char** argv) {
  cxxopts::Options opts("mushroom config",
                        "Print every key of a run config (the TOML file `mushroom run --config` reads) at its "
                        "default, with its range or choices and one line of help, as a commented TOML file. "
                        "With --check, load config files and report the first problem of each, and every line "
                        "marked (default) whose value is not the declared default.");
  opts.add_options()("out", "write to this file (atomically) instead of stdout", cxxopts::value<std::string>())(
      "check", "config files to load and check (repeatable)", cxxopts::value<std::vector<std::string>>())(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  if (args.count("check")) {
    int bad = 0;
    for (const std::string& path : args["check"].as<std::vector<std::string>>()) {
      try {
        train::load_run_config(path);
        const std::vector<std::string> marks = train::false_default_marks(read_file(path), path);
        for (const std::string& m : marks) std::cout << m << "\n";
        if (!marks.empty()) {
          ++bad;
          continue;
        }
        std::cout << path << ": ok\n";
      } catch (const std::exception& e) {
        std::cout << e.what() << "\n";
        ++bad;
      }
    }
    return bad ? 1 : 0;
  }
  const std::string text = train::defaults_file_text();
  if (args.count("out")) {
    write_file_atomic(args["out"].as<std::string>(), text);
    std::cout << "wrote " << args["out"].as<std::string>() << "\n";
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace mushroom::cli
