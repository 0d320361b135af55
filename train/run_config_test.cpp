#include "train/run_config.h"

#include <gtest/gtest.h>

namespace mushroom::train {
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

TEST(RunConfig, EmptyFileGivesDefaults) {
  const RunConfig c = parse_run_config("", "empty.toml");
  EXPECT_EQ(c.net, nn::NetConfig{});
  EXPECT_EQ(c.selfplay.games, selfplay::SelfplayConfig{}.games);
}

TEST(RunConfig, ErrorsNameTheKey) {
  expect_error("[selfplay]\ngamez = 3\n", {"test.toml", "unknown key 'selfplay.gamez'"});
  expect_error("[trian]\n", {"unknown table 'trian'"});
  expect_error("[net]\nblocks = 99\n", {"net.blocks", "outside the range"});
  expect_error("[train]\nlearning_rate = -1.0\n", {"train.learning_rate"});
  expect_error("[train]\nlr_decay_factor = 2.0\n", {"train.lr_decay_factor", "outside the range"});
  expect_error("[train]\nlr_decay_generation = -1\n", {"train.lr_decay_generation", "outside the range"});
  expect_error("[selfplay]\nproven_sample_fraction = 1.5\n", {"selfplay.proven_sample_fraction", "outside the range"});
  expect_error("[selfplay]\nworkers = \"two\"\n", {"selfplay.workers", "integer"});
  expect_error("[selfplay]\nbackend = \"tpu\"\n", {"selfplay.backend", "cpu, torch"});
  expect_error("[train]\ndevice = \"gpu\"\n", {"train.device", "cuda:N"});
  expect_error("[gate]\nenabled = 1\n", {"gate.enabled", "true or false"});
  expect_error("[selfplay]\nfull_sims = 10\ncheap_sims = 20\n", {"cheap_sims"});
  expect_error("[net\nblocks = 1\n", {"test.toml:1"});
  expect_error("[run]\ngame = \"go\"\n", {"run.game", "mushroom, blockgame"});
}

}  // namespace
}  // namespace mushroom::train
