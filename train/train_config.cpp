#include "train/train_config.h"

namespace mushroom::train {

#define FIELD(name) [](auto& c) -> auto& { return c.name; }

const SettingsTable<TrainConfig>& train_settings() {
  static const SettingsTable<TrainConfig> table =
      SettingsTable<TrainConfig>("train")
          .device("device", FIELD(device), "LibTorch device for training")
          .integer("threads", FIELD(threads), 0, 256, "LibTorch threads (0: LibTorch's default)")
          .integer("batch_size", FIELD(batch_size), 1, 65536, "samples per optimizer step")
          .integer("steps", FIELD(steps), 1, 10'000'000, "optimizer steps per generation")
          .choice("optimizer", FIELD(optimizer), {"sgd", "adam"}, "sgd (with momentum) or adam")
          .real("learning_rate", FIELD(learning_rate), 1e-7, 10.0, "the optimizer's learning rate")
          .real("momentum", FIELD(momentum), 0.0, 0.999, "for sgd")
          .real("adam_eps", FIELD(adam_eps), 1e-12, 1.0,
                "for adam: added to the gradient's scale; raise it (1e-5) when gradients are tiny, or adam's "
                "normalized steps drive every weight at full rate and saturate the layers")
          .real("weight_decay", FIELD(weight_decay), 0.0, 1.0, "L2 weight decay")
          .choice("lr_schedule", FIELD(lr_schedule), {"constant", "cosine"},
                  "constant, or cosine (decays to 10% within each generation)")
          .integer("warmup_steps", FIELD(warmup_steps), 0, 1'000'000,
                   "the first this many steps of each generation ramp the rate up linearly (0: none)")
          .real("grad_clip", FIELD(grad_clip), 0.0, 1e6,
                "scale each step's gradient down to at most this global L2 norm (0: never); the training "
                "metrics record the norm before clipping (grad_norm)")
          .integer("lr_decay_generation", FIELD(lr_decay_generation), 0, 1'000'000,
                   "from this generation on the rate is multiplied by lr_decay_factor (0: never)")
          .real("lr_decay_factor", FIELD(lr_decay_factor), 1e-6, 1.0, "the late drop's factor")
          .integer("window_samples", FIELD(window_samples), 1, 1'000'000'000, "train on the newest this many samples")
          .integer("window_first_generation", FIELD(window_first_generation), 0, 1'000'000,
                   "the window draws only on the self-play of this generation and later (a run's data/gen-NNNN "
                   "folders; `mushroom train --data` a run's data/ folder), e.g. to leave out what was labelled "
                   "before a change of evalplay.label_depth (0: every generation)")
          .real("policy_weight", FIELD(loss.policy), 0.0, 100.0, "loss weight: policy cross-entropy")
          .real("value_weight", FIELD(loss.value), 0.0, 100.0, "loss weight: win/draw/loss cross-entropy")
          .real("score_weight", FIELD(loss.score), 0.0, 100.0, "loss weight: Huber loss on margin / 20")
          .real("ownership_weight", FIELD(loss.ownership), 0.0, 100.0,
                "loss weight: mean squared error of the final-ownership map");
  return table;
}

const SettingsTable<DistillConfig>& distill_settings() {
  static const SettingsTable<DistillConfig> table =
      SettingsTable<DistillConfig>("distill")
          .real("teacher_policy", FIELD(teacher_policy), 0.0, 1.0,
                "`mushroom distill`: weight of the teacher's policy against the recorded search policy")
          .real("teacher_value", FIELD(teacher_value), 0.0, 1.0,
                "weight of the teacher's value, margin and ownership against the game's outcome")
          .text("data", FIELD(data), "directory of shards (empty: --data is required)");
  return table;
}

#undef FIELD

}  // namespace mushroom::train
