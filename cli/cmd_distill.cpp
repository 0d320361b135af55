// `mushroom distill`: trains a student net of the config's [net] size on a
// teacher's outputs mixed with the recorded self-play targets (LibTorch
// builds). The student is what export-bot embeds in the submission.
#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "nn/model_file.h"
#include "nn/torch_net.h"
#include "run/run_config.h"
#include "train/distill.h"
#include "train/trainer.h"
#include "util/text.h"

namespace mushroom::cli {

int cmd_distill(int argc, char** argv) {
  cxxopts::Options opts("mushroom distill",
                        "Trains a student net of the config's [net] size for train.steps steps on the newest "
                        "train.window_samples self-play samples under --data (or distill.data). Each target mixes the "
                        "teacher's policy, value, margin and ownership (weights distill.teacher_policy and "
                        "distill.teacher_value) with the recorded MCTS policy and game result. Writes --out (HDF5) "
                        "atomically and --out with .metrics.jsonl.");
  opts.add_options()("teacher", "teacher model, e.g. models/default.h5", cxxopts::value<std::string>())(
      "config", std::string("run config (TOML) with [net], [train] and [distill], e.g. configs/distill.toml") + kConfigLookupHelp,
      cxxopts::value<std::string>())("out", "student model file to write", cxxopts::value<std::string>())(
      "data", "directory of shards (default: distill.data)", cxxopts::value<std::string>())(
      "init", "student to continue from instead of random weights", cxxopts::value<std::string>())(
      "steps", "optimizer steps (default: train.steps)", cxxopts::value<int>())("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const run::RunConfig config = run::load_run_config(config_file(args));
  const std::string out = required(args, "out");
  const nn::Model teacher_model = nn::load_model(required(args, "teacher"));
  const std::string data = args.count("data") ? args["data"].as<std::string>() : config.distill.data;
  if (data.empty()) throw std::invalid_argument("no data: pass --data DIR or set distill.data");
  const int steps = args.count("steps") ? args["steps"].as<int>() : config.train.steps;
  if (steps < 1) throw std::invalid_argument("--steps must be positive");
  const nn::Model start =
      args.count("init") ? nn::load_model(args["init"].as<std::string>()) : nn::random_model(config.net, config.seed());

  const auto window = train::load_window(train::find_shards(data), config.train.window_samples,
                                         [](const std::string& w) { std::printf("distill: %s\n", w.c_str()); });
  std::printf("distill: teacher %s -> student %s, %zu samples from %zu shards, %d steps\n",
              nn::describe(teacher_model.config).c_str(), nn::describe(start.config).c_str(), window.samples.size(),
              window.used.size(), steps);
  std::fflush(stdout);
  nn::TorchNet teacher = nn::make_torch_net(teacher_model);
  teacher->to(nn::parse_device(config.train.device));
  train::Trainer trainer(config.train, start, "");
  std::string metrics;
  const train::TrainStats stats = trainer.train(
      window, steps, 0, &metrics, std::max(1, steps / 20),
      [&](const train::TrainStats& s) {
        std::printf("distill: step %d/%d, loss %.4f, %.1f steps/s\n", s.steps, steps, s.step_loss,
                    s.steps / std::max(1e-9, s.seconds));
        std::fflush(stdout);
      },
      train::make_distill_retarget(teacher, config.distill));
  write_file_atomic(out + ".metrics.jsonl", metrics);
  std::string teacher_id = required(args, "teacher");
  if (auto it = teacher_model.metadata.find("model_id"); it != teacher_model.metadata.end()) teacher_id = it->second;
  nn::save_model(trainer.model({{"model_id", "student-" + nn::describe(config.net) + "-" + std::to_string(steps)},
                                {"teacher", teacher_id},
                                {"config_hash", config.hash}}),
                 out);
  std::printf("distill: loss %.4f (policy %.4f, value %.4f); wrote %s (%lld parameters)\n", stats.loss, stats.policy,
              stats.value, out.c_str(), (long long)nn::load_model(out).parameter_count());
  return 0;
}

}  // namespace mushroom::cli
