#include "run/run_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "arena/boards_file.h"
#include "mushroom/board_gen.h"
#include "run/match.h"
#include "run/learning_game.h"
#include "run/pipeline.h"
#include "train/batch_encoders.h"
#include "train/learnable_games.h"
#include "train/nnue/eval_training.h"
#include "util/rng.h"
#include "util/text.h"
#include "util/toml.h"

namespace mushroom::run {
namespace {

// Expects parsing to fail with a message containing every needle.
void expect_error(const std::string& text, std::initializer_list<const char*> needles) {
  try {
    parse_run_config(text, "test.toml");
    FAIL() << "accepted:\n" << text;
  } catch (const ConfigError& e) {
    for (const char* n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

// A resumed run names only the settings that changed: the saved copy reads
// back with its --set overrides, and the comparison is key by key.
TEST(RunConfig, ASavedConfigReadsBackAndChangesAreNamedKeyByKey) {
  const std::string path = (std::filesystem::temp_directory_path() / "run_config_saved_test.toml").string();
  write_file_atomic(path, "[selfplay]\ngames = 10\n");
  const std::string saved = saved_config_text(path, {"train.steps=7"});
  const RunConfig before = parse_saved_config(saved, "config.toml");
  EXPECT_EQ(before.selfplay.games, 10);
  EXPECT_EQ(before.train.steps, 7);
  EXPECT_TRUE(changed_settings(before, before).empty());
  // The same settings with the override moved into the file: no change.
  EXPECT_TRUE(changed_settings(before, parse_run_config("[selfplay]\ngames = 10\n[train]\nsteps = 7\n", "x")).empty());
  const RunConfig after = parse_run_config("# a comment\n[selfplay]\ngames = 12\n", "x", {"train.steps=7", "train.grad_clip=1"});
  EXPECT_EQ(changed_settings(before, after),
            (std::vector<std::string>{"selfplay.games: 10 -> 12", "train.grad_clip: 0.0 -> 1.0"}));
  std::filesystem::remove(path);
}

TEST(RunConfig, ShippedConfigsParse) {
  const RunConfig cpu = load_run_config("configs/cpu-small.toml");
  EXPECT_EQ(cpu.net.blocks, 6);
  EXPECT_EQ(cpu.selfplay.backend, "cpu");
  EXPECT_EQ(cpu.train.device, "cpu");
  const RunConfig gpu = load_run_config("configs/gpu.toml");
  EXPECT_EQ(gpu.selfplay.device, "cuda");
  EXPECT_EQ(gpu.train.device, "cuda");
  EXPECT_EQ(gpu.selfplay.exploration, "gumbel");
  EXPECT_NE(cpu.hash, gpu.hash);
  load_run_config("testdata/configs/tiny.toml");
  const RunConfig blockgame = load_run_config("configs/blockgame.toml");
  EXPECT_EQ(blockgame.game(), nn::GameKind::kBlockgame);
  EXPECT_EQ(blockgame.net.game, nn::GameKind::kBlockgame);
  EXPECT_FALSE(blockgame.gate.enabled);
  EXPECT_LT(blockgame.selfplay.proven_sample_fraction, 1.0);
  EXPECT_EQ(cpu.selfplay.proven_sample_fraction, 1.0);
  EXPECT_EQ(load_run_config("testdata/configs/blockgame-ci.toml").game(), nn::GameKind::kBlockgame);
  EXPECT_EQ(cpu.game(), nn::GameKind::kMushroom);
}

// A table header that toml++ 3.3 asserts on instead of refusing ("[!a]":
// issue 101's fuzzing; the assertion aborted `mushroom run`) is refused as
// malformed TOML, naming the file.
TEST(RunConfig, AHeaderTheTomlParserAssertsOnIsRefused) {
  for (const std::string text : {"[!a]\n", "[selfplay]\ngames = 4\n[.x]\n", "[=a]\n"}) {
    try {
      parse_run_config(text, "bad.toml");
      FAIL() << "read " << text;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("bad.toml: not TOML: the TOML parser's check '", 0), 0u) << e.what();
    }
  }
}

// toml_mishandles covers every code point on which toml++ 3.3's
// is_non_ascii_horizontal_whitespace reaches __builtin_unreachable: asked of
// every other code point in a constant expression, it compiles (one that
// reached it would be a compile error: "not a constant expression").
constexpr bool toml_answers_all_others(char32_t from, char32_t to) {
  for (char32_t c = from; c <= to; ++c)
    if (!toml_mishandles(c)) (void)toml::impl::is_non_ascii_horizontal_whitespace(c);
  return true;
}
static_assert(toml_answers_all_others(0x80, 0x7FFF));
static_assert(toml_answers_all_others(0x8000, 0xFFFF));  // past U+FEFF it answers at once

// toml++ 3.3 reaches __builtin_unreachable when it asks whether some
// characters are whitespace (issue 101's fuzzing, UBSan): text holding one
// is refused before toml++ reads it, naming the place and the character,
// after a value, in a comment and in a string alike; the same character as
// an escape in a string reads.
TEST(RunConfig, ACharacterTheTomlParserMishandlesIsRefusedByPlace) {
  expect_error("[selfplay]\ngames = 4\u00e9\n", {"test.toml: not TOML: line 2, column 10: the character U+00E9 is one "
                                                  "Debian 12's TOML parser (toml++ 3.3) cannot read safely",
                                                  "write it as \\u00E9"});
  expect_error("# caf\u00e9\n[selfplay]\n", {"test.toml: not TOML: line 1, column 6: the character U+00E9"});
  expect_error("[selfplay]\nx = \"\u3050\"\n", {"test.toml: not TOML: line 2, column 6: the character U+3050"});
  // Columns count characters, not bytes.
  expect_error("x = \"\u4e2d\u00e9\"\n", {"test.toml: not TOML: line 1, column 7: the character U+00E9"});
  // A quoted --set value is refused the same way.
  try {
    parse_run_config("[selfplay]\ngames = 4\n", "test.toml", {"selfplay.exploration=\"caf\u00e9\""});
    ADD_FAILURE() << "a quoted --set value with U+00E9 was read";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--set 'selfplay.exploration=\"caf\u00e9\"': line 1, column 5: the character U+00E9"),
              std::string::npos)
        << e.what();
  }
  const std::string escaped = "name = \"caf\\u00e9\"  # cafe\n";
  EXPECT_NO_THROW(check_toml_characters(escaped));
  EXPECT_EQ(toml::parse(escaped)["name"].value_or(std::string()), "caf\u00e9");
  // The ranges' ends, from toml++'s table (blocks 0, 11 and 63 of 0x3FA from U+00A0).
  for (const char32_t c : {0xA0, 0x49A, 0x2C5D, 0x3000, 0x3058, 0xFB25, 0xFEFF, 0x20000}) EXPECT_FALSE(toml_mishandles(c)) << uint32_t(c);
  for (const char32_t c : {0xA1, 0xE9, 0x499, 0x2C5E, 0x3057, 0xFB26, 0xFEFE}) EXPECT_TRUE(toml_mishandles(c)) << uint32_t(c);
  // What toml++ answers for the others (the static_assert above: without
  // reaching its unreachable default).
  int whitespace = 0;
  for (char32_t c = 0x80; c <= 0x10FFFF; ++c)
    if (!toml_mishandles(c)) whitespace += toml::impl::is_non_ascii_horizontal_whitespace(c);
  EXPECT_EQ(whitespace, 20);  // U+00A0, U+1680, U+180E, U+2000..U+200B, U+202F, U+205F, U+2060, U+3000, U+FEFF
}

// A --set line of a saved config that no longer reads is refused naming the
// file (issue 101's fuzzing: the refusal named only the --set).
TEST(RunConfig, ASavedConfigsBadSetLineNamesTheFile) {
  const std::string saved =
      "[selfplay]\ngames = 4\n\n# mushroom run --set, applied on top of the lines above:\n#   train.lr=0.002\n";
  try {
    parse_saved_config(saved, "runs/x/config.toml");
    FAIL() << "an unknown --set key was read";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "runs/x/config.toml: --set 'train.lr=0.002': unknown key 'train.lr' (see mushroom config)");
  }
}

// `mushroom run --set section.key=value`: checked as the file is, added
// to the file's tables, counted in the hash, saved with the config.
TEST(RunConfig, OverridesReplaceKeysAndAreCheckedAsTheFileIs) {
  const std::string text = "[selfplay]\ngames = 100\n";
  const RunConfig plain = parse_run_config(text, "f.toml");
  const RunConfig set = parse_run_config(text, "f.toml", {"selfplay.games=7", "train.optimizer=sgd", "gate.enabled=false"});
  EXPECT_EQ(set.selfplay.games, 7);
  EXPECT_EQ(set.train.optimizer, "sgd");  // a bare word is a string
  EXPECT_FALSE(set.gate.enabled);
  EXPECT_NE(set.hash, plain.hash);
  EXPECT_EQ(value_text(set, "selfplay.games"), "7");
  EXPECT_EQ(value_text(set, "train.optimizer"), "\"sgd\"");
  EXPECT_EQ(value_text(plain, "selfplay.games"), "100");
  auto expect_override_error = [&](const std::string& o, const std::string& needle) {
    try {
      parse_run_config(text, "f.toml", {o});
      FAIL() << "accepted --set " << o;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_override_error("selfplay.gamez=3", "--set 'selfplay.gamez=3': unknown key 'selfplay.gamez'");
  expect_override_error("games=3", "expected section.key=value");
  expect_override_error("selfplay.games=-4", "selfplay.games");
  expect_override_error("selfplay.games=-4", "with --set selfplay.games=-4");
  expect_override_error("selfplay.threads=two", "integer");
  EXPECT_THROW(value_text(plain, "selfplay.nope"), ConfigError);

  const std::string path = (std::filesystem::temp_directory_path() / "mushroom-override-test.toml").string();
  write_file_atomic(path, text);
  const std::string saved = saved_config_text(path, {"selfplay.games=7"});
  EXPECT_EQ(saved.rfind(text, 0), 0u);
  EXPECT_NE(saved.find("#   selfplay.games=7"), std::string::npos) << saved;
  EXPECT_EQ(saved_config_text(path, {}), text);
  std::filesystem::remove(path);
}

// A device the conv net's self-play cannot reach with its backend is an
// error that names both keys.
TEST(RunConfig, ADeviceWithoutTheTorchBackendIsAnError) {
  expect_error("[selfplay]\ndevice = \"cuda\"\n",
               {"selfplay.device = \"cuda\" needs selfplay.backend = \"torch\"", "not \"cpu\""});
  expect_error("[selfplay]\nbackend = \"simulated\"\ndevice = \"cuda:1\"\n", {"selfplay.device = \"cuda:1\"", "\"simulated\""});
  EXPECT_NO_THROW(parse_run_config("[selfplay]\nbackend = \"torch\"\ndevice = \"cuda\"\n", "ok.toml"));
  // BLOCKGAME's self-play always calls LibTorch; the learned evaluation's is alpha-beta.
  EXPECT_NO_THROW(parse_run_config("[run]\ngame = \"blockgame\"\n[selfplay]\ndevice = \"cuda\"\n", "ok.toml"));
}

// configs/gpu.toml is gpu-small's design with a bigger net and longer
// searches: every key agrees but those that size the work.
TEST(RunConfig, TheGpuConfigAgreesWithGpuSmallButForItsSize) {
  const RunConfig big = load_run_config("configs/gpu.toml");
  const RunConfig small = load_run_config("configs/gpu-small.toml");
  const std::set<std::string> sized = {
      "net.blocks", "net.channels", "net.value_hidden", "selfplay.games", "selfplay.games_in_flight",
      "selfplay.full_sims", "selfplay.cheap_sims", "selfplay.exploration", "selfplay.device_batch",
      "selfplay.samples_per_shard", "train.batch_size", "train.steps", "train.window_samples", "gate.boards",
      "gate.sims", "eval.boards", "eval.sims", "run.generations"};
  const toml::table defaults = toml::parse(read_file("configs/defaults.toml"));
  int compared = 0;
  for (const auto& [section, table] : defaults) {
    if (std::string(section.str()) == "distill") continue;  // `mushroom distill` only
    for (const auto& [key, value] : *table.as_table()) {
      const std::string name = std::string(section.str()) + "." + std::string(key.str());
      if (sized.count(name)) continue;
      EXPECT_EQ(value_text(big, name), value_text(small, name)) << name;
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
  EXPECT_TRUE(big.selfplay.pipeline);
  EXPECT_GT(big.selfplay.device_batch, 0);
}

TEST(RunConfig, EmptyFileGivesDefaults) {
  const RunConfig c = parse_run_config("", "empty.toml");
  EXPECT_EQ(c.net, nn::NetConfig{});
  EXPECT_EQ(c.selfplay.games, selfplay::SelfplayConfig{}.games);
}

// [run] model's choices are the pipeline registry's names, in its order:
// one list, so a new pipeline is a choice once registered, and every choice
// makes its pipeline.
TEST(RunConfig, TheModelChoicesAreThePipelineRegistrysNames) {
  std::vector<std::string> choices;
  for (const auto& setting : run_settings().settings())
    if (setting.key == "model") choices = setting.choices;
  std::vector<std::string> registered;
  for (const PipelineEntry& entry : pipelines()) registered.push_back(entry.model);
  EXPECT_EQ(choices, registered);
  EXPECT_EQ(choices, (std::vector<std::string>{"net", "eval"}));
  for (const std::string& model : choices) {
    const RunConfig config = parse_run_config("[run]\nmodel = \"" + model + "\"\n", model + ".toml");
    EXPECT_NO_THROW(pipeline_of(config)) << model;
  }
  expect_error("[run]\nmodel = \"nets\"\n", {"net", "eval"});
}

// The learning games are named once (train/learnable_games.h): both
// layers' registries hold exactly those, in that order, and they are the
// games a net can play.
TEST(RunConfig, TheLearningGamesAreNamedOnceForBothLayers) {
  std::vector<std::string> listed;
  train::for_each_learnable_game([&](auto game) {
    listed.push_back(nn::game_name(game.kind));
    EXPECT_EQ(learning_game(game.kind).kind, game.kind);
    EXPECT_EQ(learning_game(game.kind).name, nn::game_name(game.kind));
    EXPECT_NO_THROW(train::batch_encoder(game.kind)) << nn::game_name(game.kind);
  });
  EXPECT_EQ(listed, nn::game_names());
  EXPECT_EQ(listed, (std::vector<std::string>{"mushroom", "blockgame", "tictactoe"}));
}

// selfplay.workers is now selfplay.threads: a config of either spelling
// reads the same, the old one with a note on stderr naming the new one.
TEST(RunConfig, AnOldSpellingIsReadWithANote) {
  testing::internal::CaptureStderr();
  const RunConfig old = parse_run_config("[selfplay]\nworkers = 3\n", "old.toml");
  const std::string note = testing::internal::GetCapturedStderr();
  EXPECT_EQ(old.selfplay.workers, 3);
  EXPECT_NE(note.find("old.toml: selfplay.workers is an old spelling; write selfplay.threads"), std::string::npos)
      << note;
  testing::internal::CaptureStderr();
  const RunConfig now = parse_run_config("[selfplay]\nthreads = 3\n", "new.toml");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(now.selfplay.workers, 3);
}

TEST(RunConfig, ErrorsNameTheKey) {
  expect_error("[selfplay]\ngamez = 3\n", {"test.toml", "unknown key 'selfplay.gamez'"});
  expect_error("[trian]\n", {"unknown table 'trian'"});
  expect_error("[net]\nblocks = 99\n", {"net.blocks", "outside the range"});
  expect_error("[train]\nlearning_rate = -1.0\n", {"train.learning_rate"});
  expect_error("[train]\nlr_decay_factor = 2.0\n", {"train.lr_decay_factor", "outside the range"});
  expect_error("[train]\nlr_decay_generation = -1\n", {"train.lr_decay_generation", "outside the range"});
  expect_error("[selfplay]\nproven_sample_fraction = 1.5\n", {"selfplay.proven_sample_fraction", "outside the range"});
  expect_error("[selfplay]\nthreads = \"two\"\n", {"selfplay.threads", "integer"});
  expect_error("[selfplay]\nworkers = \"two\"\n", {"selfplay.threads", "integer"});  // the old spelling
  expect_error("[selfplay]\nthreads = 2\nworkers = 3\n", {"selfplay.threads", "old spelling 'workers'"});
  expect_error("[selfplay]\nbackend = \"tpu\"\n", {"selfplay.backend", "cpu, torch"});
  expect_error("[train]\ndevice = \"gpu\"\n", {"train.device", "cuda:N"});
  expect_error("[gate]\nenabled = 1\n", {"gate.enabled", "true or false"});
  expect_error("[selfplay]\nfull_sims = 10\ncheap_sims = 20\n", {"cheap_sims"});
  expect_error("[net\nblocks = 1\n", {"test.toml:1"});
  expect_error("[run]\ngame = \"go\"\n", {"run.game", "mushroom, blockgame"});
  expect_error("[evalnet]\ntarget = \"elo\"\n", {"evalnet.target", "probability, margin"});
  expect_error("[evalnet]\ntarget = \"margin\"\nteacher_weight = 0.3\n", {"evalnet.teacher_weight", "target = \"margin\""});
  expect_error("[evalnet]\nphase_buckets = 9\n", {"evalnet.phase_buckets", "outside the range"});
  expect_error("[evalnet]\nfocus_weight = 0.0\n", {"evalnet.focus_weight", "outside the range"});
  expect_error("[evalnet]\nfocus_min = 131\nfocus_max = 95\n",
               {"evalnet.focus_min = 131 is above evalnet.focus_max = 95"});
  expect_error("[evalplay]\nfocus_min = 131\n", {"evalplay.focus_min = 131 is above evalplay.focus_max = 130"});
  expect_error("[evalplay]\nfocus_label_depth = 13\n", {"evalplay.focus_label_depth", "outside the range"});
  expect_error("[evalnet]\nfocus_weight = 20.5\n", {"evalnet.focus_weight", "outside the range"});
  expect_error("[evalnet]\nfocus_max = 171\n", {"evalnet.focus_max", "outside the range"});
  expect_error("[evalplay]\nfocus_max = 171\n", {"evalplay.focus_max", "outside the range"});
}

// The focus band (issue 100, item 4): off by default, and what a config
// sets reaches the labeller's settings.
TEST(RunConfig, TheFocusBandReachesTheLabellerAndTheSampler) {
  const RunConfig plain = parse_run_config("", "empty.toml");
  EXPECT_EQ(plain.evalnet.focus_weight, 1.0);
  EXPECT_EQ(plain.evalplay.label_config().focus_depth, 0);
  EXPECT_EQ(train::sampler_filters(plain.evalnet).focus_weight, 1.0);
  const RunConfig on = parse_run_config(
      "[evalplay]\nlabel_depth = 5\nfocus_label_depth = 7\nfocus_min = 90\nfocus_max = 125\n"
      "[evalnet]\nfocus_weight = 2.5\nfocus_min = 100\nfocus_max = 120\n",
      "test.toml");
  const selfplay::LabelConfig label = on.evalplay.label_config();
  EXPECT_EQ(label.depth_at(89), 5);
  EXPECT_EQ(label.depth_at(90), 7);
  EXPECT_EQ(label.depth_at(125), 7);
  EXPECT_EQ(label.depth_at(126), 5);
  const train::EvalFilters filters = train::sampler_filters(on.evalnet);
  EXPECT_EQ(filters.focus_weight, 2.5);
  EXPECT_EQ(filters.focus_min, 100);
  EXPECT_EQ(filters.focus_max, 120);
  const RunConfig filtered = parse_run_config(
      "[evalnet]\nskip_gain_at_least = 6\ndrop_contradicting = 4\nphase_balance = true\n", "test.toml");
  EXPECT_EQ(train::sampler_filters(filtered.evalnet).skip_gain_at_least, 6);
  EXPECT_EQ(train::sampler_filters(filtered.evalnet).drop_contradicting, 4);
  EXPECT_TRUE(train::sampler_filters(filtered.evalnet).phase_balance);
  // A band of one value, and the ends of the ranges, are taken.
  const RunConfig one = parse_run_config(
      "[evalnet]\nfocus_weight = 20.0\nfocus_min = 110\nfocus_max = 110\n"
      "[evalplay]\nfocus_label_depth = 12\nfocus_min = 0\nfocus_max = 0\n",
      "test.toml");
  EXPECT_EQ(one.evalnet.focus_weight, 20.0);
  EXPECT_EQ(one.evalplay.label_config().depth_at(0), 12);
  EXPECT_EQ(one.evalplay.label_config().depth_at(1), one.evalplay.label_depth);
}

// [probcut], the learned evaluation's fit stage: each bad setting is
// refused by its key before any work, the fit's own rules across keys too.
TEST(RunConfig, BadProbCutSettingsAreRefusedByName) {
  const std::string eval_run = "[run]\nmodel = \"eval\"\n";
  expect_error(eval_run + "[probcut]\ngamez = 3\n", {"unknown key 'probcut.gamez'"});
  expect_error(eval_run + "[probcut]\ngames = 0\n", {"probcut.games", "outside the range"});
  expect_error(eval_run + "[probcut]\nmax_depth = 40\n", {"probcut.max_depth", "outside the range"});
  expect_error(eval_run + "[probcut]\nsample_rate = 0.0\n", {"probcut.sample_rate", "outside the range"});
  expect_error(eval_run + "[probcut]\nnodes = 10\n", {"probcut.nodes", "outside the range"});
  expect_error(eval_run + "[probcut]\nenabled = \"yes\"\n", {"probcut.enabled", "true or false"});
  expect_error(eval_run + "[probcut]\nmax_depth = 6\nexact_max_left = 60\nexact_shallow = 8\n",
               {"probcut.exact_shallow = 8 must be in [1, probcut.max_depth = 6]"});
  expect_error("[probcut]\nenabled = true\n", {"probcut.enabled", "run.model = \"net\""});
  const RunConfig ok =
      parse_run_config(eval_run + "[probcut]\nenabled = true\ngames = 40\nmax_depth = 10\nexact_max_left = 100\n",
                       "test.toml");
  EXPECT_TRUE(ok.probcut.enabled);
  EXPECT_EQ(ok.probcut.games, 40);
  EXPECT_EQ(ok.probcut.max_depth, 10);
  EXPECT_EQ(ok.probcut.exact_max_left, 100);
  EXPECT_FALSE(parse_run_config("", "empty.toml").probcut.enabled);  // off unless a config turns it on
}

// [evalplay] label_probcut: off unless a config turns it on, and refused
// by name where it cannot apply: a conv-net run (no learned evaluation, no
// fit), a run that makes no fits ([probcut] off), the plain search (the
// fits are the playing search's); a misspelt key is named.
TEST(RunConfig, LabelProbCutIsRefusedWhereItCannotApply) {
  const std::string eval_run = "[run]\nmodel = \"eval\"\n[probcut]\nenabled = true\n";
  const std::string playing = "[evalplay]\nlabel_search = \"playing\"\nlabel_probcut = true\n";
  const RunConfig ok = parse_run_config(eval_run + playing, "test.toml");
  EXPECT_TRUE(ok.evalplay.label_probcut);
  EXPECT_TRUE(ok.evalplay.label_config().probcut);
  EXPECT_FALSE(parse_run_config("", "empty.toml").evalplay.label_probcut);
  expect_error(playing, {"evalplay.label_probcut", "run.model = \"net\""});
  expect_error("[run]\nmodel = \"eval\"\n" + playing, {"evalplay.label_probcut", "probcut.enabled = true"});
  expect_error(eval_run + "[evalplay]\nlabel_probcut = true\n", {"[evalplay]", "label_search = \"playing\", not \"plain\""});
  expect_error(eval_run + "[evalplay]\nlabel_probcutt = true\n", {"unknown key 'evalplay.label_probcutt'"});
  expect_error(eval_run + "[evalplay]\nlabel_probcut = 1\n", {"evalplay.label_probcut", "true or false"});
}

TEST(RunConfig, DefaultsFileIsTheDeclaration) {
  // configs/defaults.toml is written from the declared settings; when this
  // fails, run `build/mushroom config --out configs/defaults.toml`.
  EXPECT_EQ(read_file("configs/defaults.toml"), defaults_file_text());
  // It loads, and every value in it is the default: the same config as none.
  const RunConfig all = load_run_config("configs/defaults.toml");
  const RunConfig none = parse_run_config("", "empty.toml");
  EXPECT_EQ(all.net, none.net);
  EXPECT_EQ(all.selfplay.games, none.selfplay.games);
  EXPECT_EQ(all.train.optimizer, none.train.optimizer);
  EXPECT_EQ(all.train.learning_rate, none.train.learning_rate);
  EXPECT_EQ(all.train.steps, none.train.steps);
  EXPECT_EQ(all.run.generations, none.run.generations);
  EXPECT_EQ(false_default_marks(read_file("configs/defaults.toml"), "defaults.toml").size(), 0u);
}

TEST(RunConfig, ShippedConfigsCallDefaultOnlyWhatIsTheDefault) {
  int marked = 0;
  for (const auto& entry : std::filesystem::directory_iterator("configs")) {
    if (entry.path().extension() != ".toml") continue;
    const std::string path = entry.path().string();
    const std::string text = read_file(path);
    EXPECT_NO_THROW(load_run_config(path)) << path;
    for (const std::string& problem : false_default_marks(text, path)) ADD_FAILURE() << problem;
    for (size_t at = text.find("(default)"); at != std::string::npos; at = text.find("(default)", at + 1)) ++marked;
  }
  EXPECT_GT(marked, 50);  // the check has something to check
}

TEST(RunConfig, AFalseDefaultMarkIsReportedByLineAndKey) {
  const std::string text = "[train]\nsteps = 400    # (default) right\noptimizer = \"adam\"  # (default) wrong\n"
                           "[selfplay]\ngames = 200.0  # (default) a float of the same value counts\n";
  const std::vector<std::string> problems = false_default_marks(text, "x.toml");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("x.toml:3: train.optimizer is marked (default) but the default is \"sgd\""),
            std::string::npos)
      << problems[0];
  EXPECT_EQ(false_default_marks("[net]\nbogus = 1  # (default)\n", "y.toml").size(), 1u);
}

}  // namespace
}  // namespace mushroom::run

namespace mushroom::run {
namespace {

// gate.boards_file: generation g's gate plays the file's boards from
// g * gate.boards on, wrapping around; without it, seeded boards as before.
TEST(RunConfig, TheGatesBoardsComeFromGateBoardsFile) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "gate-boards-test.txt";
  const std::vector<Position> boards = {random_board(101), random_board(102), random_board(103)};
  write_file_atomic(file.string(), format_boards_file(boards));
  const RunConfig config = parse_run_config("[gate]\nboards = 4\nboards_file = \"" + file.string() + "\"\n", "f.toml");
  EXPECT_EQ(config.gate.boards_file, file.string());
  const std::vector<Position> from_file = gate_file_boards(config.gate);
  ASSERT_EQ(from_file.size(), 3u);
  const int generation = 1;
  const std::vector<Position> starts =
      match_boards(config.gate.boards, 7, from_file, int64_t(generation) * config.gate.boards);
  ASSERT_EQ(starts.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(starts[size_t(i)] == boards[size_t((4 + i) % 3)]) << i;

  const RunConfig seeded = parse_run_config("[gate]\nboards = 2\n", "f.toml");
  EXPECT_TRUE(gate_file_boards(seeded.gate).empty());
  const std::vector<Position> random = match_boards(2, 7, {}, 0);
  uint64_t x = 7;
  EXPECT_TRUE(random[0] == random_board(Rng::splitmix64(x)));  // the boards gates always played

  // Other games play no boards: the key is refused when the config loads.
  expect_error("[run]\ngame = \"blockgame\"\n[gate]\nboards_file = \"" + file.string() + "\"\n",
               {"gate.boards_file", "a blockgame run plays no boards file"});

  std::filesystem::remove(file);
  try {
    gate_file_boards(config.gate);
    FAIL() << "a missing boards file was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::run
