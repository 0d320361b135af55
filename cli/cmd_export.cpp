#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "agents/agent_spec.h"
#include "agents/probcut_fitting.h"  // probcut_fit_path
#include "alphabeta/probcut.h"
#include "export/exporter.h"
#include "nn/model_file.h"
#include "nnue/network.h"
#include "util/shipped_file.h"
#include "util/text.h"
#include "view/run_records.h"

namespace mushroom::cli {

int cmd_export_bot(int argc, char** argv) {
  cxxopts::Options opts("mushroom export-bot",
                        "Write the contest submission: ONE self-contained C++ file that needs nothing but the standard "
                        "library; the judge compiles it as main.cpp and starts it as `./main NYPC` (both lines: docs/submission.md, "
                        "\"The judge\"). With --model: MCTS on a conv net (a small hand-written inference and "
                        "the model's weights quantized to int8). With --eval: alpha-beta with a learned evaluation "
                        "(its weights file). Both bring the engine's move generator, exact endgame solver, time "
                        "management and protocol. The weights are embedded when the source stays under --max-bytes, "
                        "else written to data.bin beside --out (the bot reads it from its working directory, else from beside "
                        "its executable). With neither --model nor --eval: the shipped evaluation models/eval.bin and its fit "
                        "models/eval.probcut, found as `mushroom bot` finds them (the working folder, $MUSHROOM_DATA, the "
                        "installed share/mushroom; `mushroom --version` says which).");
  opts.add_options()("model", "conv-net model file (HDF5), e.g. models/student.h5, or a run directory: its promoted "
                     "model (models/promoted.txt)", cxxopts::value<std::string>())(
      "eval", "learned-evaluation file, e.g. models/eval.bin, or a run directory (runs/NAME): its promoted evaluation "
      "(models/promoted.txt; the --init model's copy, models/init.eval, before any candidate is promoted) and its fit", cxxopts::value<std::string>())(
      "probcut", "with --eval: the evaluation's Multi-ProbCut fit (`mushroom probcut-fit`), e.g. models/eval.probcut, "
      "embedded in the source for the bot's search; a fit made with another evaluation is refused. With --eval a run "
      "directory, its promoted evaluation's fit is taken from beside it (models/NAME.probcut, made by the run's fit "
      "stage). Without one the bot searches without ProbCut, and the export warns", cxxopts::value<std::string>())(
      "agent", "with --eval: the bot's alphabeta options over its defaults, as an agent is written everywhere "
      "(alphabeta:key=value,..., e.g. alphabeta:time_scale=1.2), checked as the agent checks them and "
      "embedded in the source; eval and probcut are --eval and --probcut", cxxopts::value<std::string>())(
      "out", "output source file, e.g. submission.cpp", cxxopts::value<std::string>())(
      "max-bytes", "largest source file to write (the judge's limit is 1 MiB)",
      cxxopts::value<size_t>()->default_value(std::to_string(exporter::kMaxSourceBytes)))(
      "data-bin", "put the weights in data.bin beside --out even when they would fit in the source")(
      "h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string out_path = required(args, "out");
  // Checked before the export's work, and named: the write would otherwise
  // fail with only the temp file's path.
  const std::filesystem::path out_dir = std::filesystem::path(out_path).parent_path();
  if (!out_dir.empty() && !std::filesystem::is_directory(out_dir))
    throw std::invalid_argument("--out " + out_path + ": the folder " + out_dir.string() + " does not exist");
  if (args.count("model") && args.count("eval"))
    throw std::invalid_argument("export-bot: give one of --model (a conv net) and --eval (a learned evaluation), not both");
  // Neither: the contest bot's evaluation and fit (util/shipped_file.h).
  const bool shipped = !args.count("model") && !args.count("eval");
  if (shipped && args.count("probcut"))
    throw std::invalid_argument("export-bot: --probcut goes with --eval; without --eval the shipped evaluation is "
                                "exported with its own fit");
  const size_t max_bytes = args["max-bytes"].as<size_t>();
  exporter::ExportOptions options;
  options.data_bin = args.count("data-bin") > 0;
  std::function<exporter::ExportedBot()> make;
  // A run directory stands for the model its training promoted last.
  auto weights_path = [](const std::string& given) {
    if (!std::filesystem::is_directory(given)) return given;
    const std::string promoted = view::promoted_model_of_run(given);
    if (promoted.empty()) {
      // No candidate has passed the gate yet (a run stopped early, or a short
      // one): name the newest candidate, which exports as well.
      std::vector<std::string> candidates;
      const std::filesystem::path models = std::filesystem::path(given) / "models";
      if (std::filesystem::is_directory(models))
        for (const auto& e : std::filesystem::directory_iterator(models)) {
          // A candidate's own file, not a temp file a crash left beside it (NAME.tmp.PID).
          const std::string extension = e.path().extension().string();
          if (e.path().filename().string().rfind("gen-", 0) == 0 && (extension == ".eval" || extension == ".h5"))
            candidates.push_back(e.path().string());
        }
      std::sort(candidates.begin(), candidates.end());
      throw std::invalid_argument(
          given + " has promoted no model yet (no models/promoted.txt): no candidate has beaten the best so far at its "
                  "gate (see " + (std::filesystem::path(given) / "dashboard.html").string() + ")" +
          (candidates.empty() ? "; it has no candidate either: is it a run directory?"
                              : "; its newest candidate is " + candidates.back() +
                                    ", which exports as well: pass that file instead of the directory"));
    }
    if (!std::filesystem::is_regular_file(promoted))
      throw std::invalid_argument(
          (std::filesystem::path(given) / "models" / "promoted.txt").string() + " names " +
          std::filesystem::path(promoted).filename().string() + ", which is not in " +
          (std::filesystem::path(given) / "models").string() +
          " (a run started with --init before runs kept their own copy, models/init.eval, named the file it started "
          "from): export that file, or a candidate of the run, instead of the directory");
    std::printf("exporting %s (promoted by the run in %s)\n", promoted.c_str(), given.c_str());
    return promoted;
  };
  if (args.count("model") && args.count("probcut"))
    throw std::invalid_argument("export-bot: --probcut goes with --eval (a fit of a learned evaluation), not with --model");
  if (args.count("agent")) {
    if (args.count("model"))
      throw std::invalid_argument("export-bot: --agent goes with --eval (the alphabeta bot's options), not with --model");
    const AgentSpec spec = parse_agent_spec(args["agent"].as<std::string>());
    if (spec.name != "alphabeta")
      throw std::invalid_argument("export-bot: --agent " + args["agent"].as<std::string>() +
                                  ": the exported bot is the alphabeta agent (alphabeta:key=value,...)");
    options.agent_options = spec.options;
  }
  if (args.count("model")) {
    const std::string model_path = weights_path(args["model"].as<std::string>());
    const auto model = std::make_shared<nn::Model>(nn::load_model(model_path));
    options.model_label = exporter::model_label(*model, model_path);
    make = [model, &options] { return exporter::export_bot(*model, options); };
  } else {
    const std::string eval_path = shipped ? default_eval_path() : weights_path(args["eval"].as<std::string>());
    const auto bytes = std::make_shared<std::string>(read_file(eval_path));
    options.model_label = eval_path.substr(eval_path.find_last_of('/') + 1);
    nnue::parse_network(*bytes, eval_path);  // names the file when it is not usable
    // A run's evaluation goes with its fit (the run's fit stage writes it
    // beside the evaluation: run/fit_stage.h), as the bot searches.
    std::string fit_path = args.count("probcut") ? args["probcut"].as<std::string>() : shipped ? default_probcut_path() : "";
    if (shipped)
      std::printf("exporting the shipped evaluation %s%s\n", eval_path.c_str(),
                  fit_path.empty() ? "" : (" with its fit " + fit_path).c_str());
    const std::filesystem::path beside = probcut_fit_path(eval_path);
    if (fit_path.empty() && !shipped && std::filesystem::is_directory(args["eval"].as<std::string>()) &&
        std::filesystem::is_regular_file(beside)) {
      fit_path = beside.string();
      std::printf("with its Multi-ProbCut fit %s\n", fit_path.c_str());
    }
    if (fit_path.empty())
      std::printf("warning: no Multi-ProbCut fit (%s): the bot will search without ProbCut, unlike the "
                  "committed one; --probcut FIT names the evaluation's fit (`mushroom probcut-fit`)\n",
                  std::filesystem::is_regular_file(beside) ? (beside.string() + " is beside it: pass --probcut " +
                                                              beside.string()).c_str()
                                                           : (beside.string() + " does not exist").c_str());
    if (!fit_path.empty()) {
      options.probcut_fit = read_file(fit_path);
      // Names the file and line of a malformed fit, or both evaluations' hashes.
      check_probcut_evaluation(parse_probcut_fit(options.probcut_fit, fit_path), probcut_evaluation_of_bytes(*bytes),
                               fit_path);
      options.probcut_label = fit_path.substr(fit_path.find_last_of('/') + 1);
    }
    make = [bytes, &options] { return exporter::export_eval_bot(*bytes, options); };
  }
  exporter::ExportedBot bot = make();
  if (bot.source.size() > max_bytes && !options.data_bin) {
    std::printf("the weights do not fit in a %zu-byte source (%zu bytes): writing them to data.bin\n", max_bytes,
                bot.source.size());
    options.data_bin = true;
    bot = make();
  }
  if (bot.source.size() > max_bytes) {
    std::cerr << "mushroom export-bot: the source would be " << bot.source.size() << " bytes, over --max-bytes "
              << max_bytes << "; nothing written" << std::endl;
    return 1;
  }
  if (bot.data_bin.size() > exporter::kMaxDataBinBytes) {
    std::cerr << "mushroom export-bot: data.bin would be " << bot.data_bin.size() << " bytes, over the judge's "
              << exporter::kMaxDataBinBytes << "; nothing written" << std::endl;
    return 1;
  }
  // The source and its data.bin are replaced together (write_files_atomic):
  // data.bin first, so that main.cpp appearing marks a finished export. Over
  // an older export, a kill between the two renames leaves the new data.bin
  // beside the old source, which the bot detects by the weights' hash: it
  // says so and plays them without the ProbCut fit made for its own.
  const std::string data_path = std::filesystem::path(out_path).replace_filename("data.bin").string();
  const std::string data_bytes(bot.data_bin.begin(), bot.data_bin.end());
  std::vector<std::pair<std::string, std::string_view>> files;
  if (options.data_bin) files.emplace_back(data_path, data_bytes);
  files.emplace_back(out_path, bot.source);
  write_files_atomic(files);
  std::printf("wrote %s: %zu bytes (limit %zu)\n", out_path.c_str(), bot.source.size(), max_bytes);
  if (options.data_bin)
    std::printf("wrote %s: %zu bytes (limit %zu)\n", data_path.c_str(), bot.data_bin.size(), exporter::kMaxDataBinBytes);
  return 0;
}

}  // namespace mushroom::cli
