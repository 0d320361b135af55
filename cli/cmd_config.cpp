#include <iostream>

#include "cli/command.h"
#include "run/run_config.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_config(int argc, char** argv) {
  cxxopts::Options opts("mushroom config",
                        "Print every key of a run config (the TOML file `mushroom run --config` reads) at its "
                        "default, with its range or choices and one line of help, as a commented TOML file. "
                        "With --check FILE..., load each config file and report its first problem, and every line "
                        "marked (default) whose value is not the declared default. With --get section.key FILE..., "
                        "print that key's value in each (e.g. for scripts: deploy/slurm/launch.sh).");
  opts.add_options()("out", "write to this file (atomically) instead of stdout", cxxopts::value<std::string>())(
      "check", "check these config files (and any named after the options)")(
      "get", "section.key: print its value in each config file named", cxxopts::value<std::string>())(
      "set", "section.key=value: as `mushroom run --set`, applied to each file before --check or --get (repeatable)",
      cxxopts::value<std::vector<std::string>>())("files", "config files", cxxopts::value<std::vector<std::string>>())(
      "h,help", "show this help");
  opts.parse_positional({"files"});
  opts.positional_help("[FILE...]");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::vector<std::string> files =
      args.count("files") ? args["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const std::vector<std::string> overrides =
      args.count("set") ? args["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (args.count("check") && args.count("get")) throw std::invalid_argument("give one of --check and --get");
  if ((args.count("check") || args.count("get")) && files.empty())
    throw std::invalid_argument("name the config files to " + std::string(args.count("check") ? "check" : "read"));
  if (!(args.count("check") || args.count("get")) && !files.empty())
    throw std::invalid_argument("config files given without --check or --get: '" + files.front() + "'");
  if (args.count("get")) {
    const std::string key = args["get"].as<std::string>();
    for (const std::string& path : files) {
      const std::string value = run::value_text(run::load_run_config(path, overrides), key);
      std::cout << (files.size() > 1 ? path + ": " : "") << value << "\n";
    }
    return 0;
  }
  if (args.count("check")) {
    int bad = 0;
    for (const std::string& path : files) {
      try {
        run::load_run_config(path, overrides);
        const std::vector<std::string> marks = run::false_default_marks(read_file(path), path);
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
  const std::string text = run::defaults_file_text();
  if (args.count("out")) {
    write_file_atomic(args["out"].as<std::string>(), text);
    std::cout << "wrote " << args["out"].as<std::string>() << "\n";
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace mushroom::cli
