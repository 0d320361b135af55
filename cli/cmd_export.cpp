#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "export/exporter.h"
#include "nn/model_file.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_export_bot(int argc, char** argv) {
  cxxopts::Options opts("mushroom export-bot",
                        "Write the contest submission: ONE self-contained C++ file (the engine's move generator, MCTS "
                        "with the exact endgame solver, time management and protocol, a small hand-written inference "
                        "and the model's weights quantized to int8), which builds with `g++ -std=c++17 -O2` and no "
                        "libraries. Prints the file size and refuses to write a file over --max-bytes.");
  opts.add_options()("model", "model file (HDF5), e.g. models/student.h5", cxxopts::value<std::string>())(
      "out", "output source file, e.g. submission.cpp", cxxopts::value<std::string>())(
      "max-bytes", "largest source file to write (the judge's limit is 1 MiB)",
      cxxopts::value<size_t>()->default_value(std::to_string(exporter::kMaxSourceBytes)))(
      "data-bin", "put the weights in data.bin beside --out (read from the bot's working directory) instead of the "
                  "source")("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string model_path = required(args, "model"), out_path = required(args, "out");
  const size_t max_bytes = args["max-bytes"].as<size_t>();
  const nn::Model model = nn::load_model(model_path);
  exporter::ExportOptions options;
  options.data_bin = args.count("data-bin") > 0;
  options.model_label = exporter::model_label(model, model_path);
  const exporter::ExportedBot bot = exporter::export_bot(model, options);
  if (bot.source.size() > max_bytes) {
    std::cerr << "mushroom export-bot: the source would be " << bot.source.size() << " bytes, over --max-bytes "
              << max_bytes << "; nothing written (try --data-bin or a smaller model)" << std::endl;
    return 1;
  }
  if (bot.data_bin.size() > exporter::kMaxDataBinBytes) {
    std::cerr << "mushroom export-bot: data.bin would be " << bot.data_bin.size() << " bytes, over the judge's "
              << exporter::kMaxDataBinBytes << "; nothing written" << std::endl;
    return 1;
  }
  write_file_atomic(out_path, bot.source);
  std::printf("wrote %s: %zu bytes (limit %zu)\n", out_path.c_str(), bot.source.size(), max_bytes);
  if (options.data_bin) {
    const std::string data_path = std::filesystem::path(out_path).replace_filename("data.bin").string();
    write_file_atomic(data_path, std::string(bot.data_bin.begin(), bot.data_bin.end()));
    std::printf("wrote %s: %zu bytes (limit %zu)\n", data_path.c_str(), bot.data_bin.size(), exporter::kMaxDataBinBytes);
  }
  return 0;
}

}  // namespace mushroom::cli
