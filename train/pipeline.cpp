#include "train/pipeline.h"

#include "nn/model_file.h"
#include "train/eval_pipeline.h"
#include "train/learner.h"

namespace mushroom::train {

namespace {

// The conv net of the run's game, through its learning game's registration.
Pipeline net_pipeline(const RunConfig& config) {
  const LearningGame& game = learning_game(config.game());
  Pipeline p;
  p.model_extension = ".h5";
  p.schema = game.schema->game;
  p.bootstrap_name = game.bootstrap_name(config);
  p.bootstrap_id = game.bootstrap_id(config);
  // Games in flight that go on from one generation (or actor chunk) to the
  // next, for as long as this process runs (selfplay.carry_games).
  auto carry = selfplay::make_game_carry();
  p.selfplay = [&game, carry](selfplay::SelfplayJob& job, const std::string& model) {
    if (!model.empty()) job.model = std::make_shared<nn::Model>(nn::load_model(model));
    if (job.config.carry_games) job.carry = carry;
    return game.selfplay(job);
  };
  p.learn = [&config](const RunDir& run, int g, const std::string& init_model, const StageLog& log) {
    return run_learner(config, run, g, init_model, log);
  };
  p.make_judge = [&config, &game](const RunDir&, int threads) { return game.make_judge(config, threads); };
  p.check_model = [&config](const std::string& model) {
    const nn::Model m = nn::load_model(model);
    if (!(m.config == config.net))
      throw std::runtime_error(model + " is a " + nn::describe(m.config) + " net but the config asks for " +
                               nn::describe(config.net));
  };
  return p;
}

}  // namespace

Pipeline pipeline_of(const RunConfig& config) {
  return config.learns_eval() ? eval_pipeline(config) : net_pipeline(config);
}

}  // namespace mushroom::train
