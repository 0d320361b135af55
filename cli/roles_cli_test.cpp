// The run's stages as separate processes (run/roles.h), run as they are
// on a cluster: actors, a learner and a gatekeeper sharing one directory,
// killed with SIGKILL and started again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "nnue/network.h"
#include "selfplay/shard.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const char* kConfig = "testdata/configs/roles-ci.toml";

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path("build-test-tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> role_args(const std::string& role, const fs::path& run, std::vector<std::string> more = {},
                                   const char* config = kConfig) {
  std::vector<std::string> args = {MUSHROOM_BIN, "run", "--role", role, "--config", config, "--dir", run.string(),
                                   "--poll-seconds", "0.2", "--parallel", "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The finished shards (not temp files) under dir.
std::vector<fs::path> shards_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::exists(dir))
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".h5" && e.path().string().find(".tmp") == std::string::npos)
        out.push_back(e.path());
  return out;
}

bool log_has(const fs::path& log, const std::string& words) {
  return fs::exists(log) && read_file(log.string()).find(words) != std::string::npos;
}

// Every shard reads back whole, and no game id is in two shards.
void expect_whole_shards_and_unique_games(const fs::path& data, const char* schema = "mushroom-eval3") {
  std::map<int64_t, std::string> owner;
  for (const fs::path& path : shards_in(data)) {
    const selfplay::Shard shard = selfplay::read_shard(path.string(), schema);  // throws if partial
    std::set<int64_t> games;
    for (const auto& s : shard.samples) games.insert(s.game_id);
    for (int64_t id : games) {
      const auto [it, fresh] = owner.emplace(id, path.filename().string());
      EXPECT_TRUE(fresh) << "game " << id << " is in " << it->second << " and " << path.filename();
    }
  }
}

TEST(Roles, ActorsALearnerAndAGatekeeperFinishARunTogether) {
  const fs::path dir = fresh_dir("roles_together"), run = dir / "run";
  BackgroundProcess a0(role_args("actor", run, {"--actor-id", "0", "--chunk-games", "20"}), (dir / "a0.log").string());
  BackgroundProcess a1(role_args("actor", run, {"--actor-id", "1", "--chunk-games", "20"}), (dir / "a1.log").string());
  BackgroundProcess learner(role_args("learner", run), (dir / "learner.log").string());
  BackgroundProcess gatekeeper(role_args("gatekeeper", run), (dir / "gatekeeper.log").string());
  ASSERT_TRUE(gatekeeper.wait_exit(400)) << read_file((dir / "gatekeeper.log").string());
  for (BackgroundProcess* p : {&a0, &a1, &learner}) ASSERT_TRUE(p->wait_exit(60));
  for (BackgroundProcess* p : {&a0, &a1, &learner, &gatekeeper}) EXPECT_EQ(p->exit_code(), 0);
  EXPECT_TRUE(log_has(dir / "a0.log", "the run is complete; stopping"));
  EXPECT_TRUE(log_has(dir / "learner.log", "every generation's candidate is trained"));
  EXPECT_TRUE(log_has(dir / "gatekeeper.log", "every generation is recorded"));
  for (const char* gen : {"gen-0001", "gen-0002"}) {
    int tagged[2] = {0, 0};
    for (const fs::path& p : shards_in(run / "data" / gen)) {
      tagged[0] += p.filename().string().find(".a000-w") != std::string::npos;
      tagged[1] += p.filename().string().find(".a001-w") != std::string::npos;
    }
    EXPECT_GT(tagged[0], 0) << gen;
    EXPECT_GT(tagged[1], 0) << gen;
    EXPECT_TRUE(fs::exists(run / "metrics" / (std::string(gen) + ".json")));
  }
  // The pointer moved to the last promoted candidate, and actors used the first.
  EXPECT_EQ(read_file((run / "models" / "promoted.txt").string()), "gen-0002.eval\n");
  EXPECT_TRUE(log_has(dir / "a0.log", "self-play with " + (run / "models" / "gen-0001.eval").string()) ||
              log_has(dir / "a1.log", "self-play with " + (run / "models" / "gen-0001.eval").string()));
  expect_whole_shards_and_unique_games(run / "data");
}

// With carry_games, an actor's chunk ends once it has finished its games
// and hands the rest on to the next chunk. A chunk that finished only
// carried games wrote no shard of its own, yet its games in flight hold its
// ids: the next chunk must still take fresh ones.
TEST(Roles, AnActorCarryingGamesAcrossChunksNeverReusesAGameId) {
  const fs::path dir = fresh_dir("roles_carry"), run = dir / "run";
  BackgroundProcess actor(role_args("actor", run, {"--actor-id", "2", "--chunk-games", "2"}, "testdata/configs/roles-carry.toml"),
                          (dir / "actor.log").string());
  const auto chunks = [&] {
    const std::string log = fs::exists(dir / "actor.log") ? read_file((dir / "actor.log").string()) : "";
    int n = 0;
    for (size_t at = log.find("generation 1: "); at != std::string::npos; at = log.find("generation 1: ", at + 1)) ++n;
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return chunks() >= 12; }, 120)) << read_file((dir / "actor.log").string());
  write_file_atomic((run / "stop").string(), "");
  ASSERT_TRUE(actor.wait_exit(60));
  EXPECT_EQ(actor.exit_code(), 0);
  expect_whole_shards_and_unique_games(run / "data", "mushroom");
  // Every shard's games come from the chunk its name's first id lies in.
  int shards = 0;
  for (const fs::path& p : shards_in(run / "data")) {
    const std::string name = p.filename().string();  // shard-<first id>-<tag>-wNN.h5
    const int64_t first = std::stoll(name.substr(6, name.find('-', 6) - 6));
    for (const auto& s : selfplay::read_shard(p.string(), "mushroom").samples)
      EXPECT_EQ(s.game_id / 100'000, first / 100'000) << name << " holds games of two chunks";
    ++shards;
  }
  EXPECT_GE(shards, 6);
}

TEST(Roles, AnActorKilledAtAnyMomentLeavesNoPartialShard) {
  const fs::path dir = fresh_dir("roles_actor_kill"), run = dir / "run";
  // No learner: the actor plays generation 1 without end. Kill it at
  // staggered moments (some mid-write), then check every shard.
  for (int kill = 0; kill < 6; ++kill) {
    BackgroundProcess actor(role_args("actor", run, {"--actor-id", "3", "--chunk-games", "7"}), (dir / "actor.log").string());
    const size_t before = shards_in(run).size();
    ASSERT_TRUE(wait_until([&] { return shards_in(run).size() > before; }, 60)) << read_file((dir / "actor.log").string());
    std::this_thread::sleep_for(std::chrono::milliseconds(37 * kill));
    actor.kill_now();
  }
  EXPECT_GE(shards_in(run).size(), 6u);
  expect_whole_shards_and_unique_games(run / "data");
}

TEST(Roles, AKilledLearnerResumesFromItsLastCandidate) {
  const fs::path dir = fresh_dir("roles_learner_kill"), run = dir / "run";
  BackgroundProcess actor(role_args("actor", run, {"--chunk-games", "20"}), (dir / "actor.log").string());
  const fs::path first = run / "models" / "gen-0001.eval";
  std::string first_bytes;
  {
    BackgroundProcess learner(role_args("learner", run), (dir / "learner1.log").string());
    ASSERT_TRUE(wait_until([&] { return log_has(dir / "learner1.log", "== learner: generation 2"); }, 300))
        << read_file((dir / "learner1.log").string());
    learner.kill_now();  // training generation 2
    first_bytes = read_file(first.string());
  }
  EXPECT_FALSE(fs::exists(run / "models" / "gen-0002.eval"));
  BackgroundProcess again(role_args("learner", run), (dir / "learner2.log").string());
  ASSERT_TRUE(again.wait_exit(300)) << read_file((dir / "learner2.log").string());
  EXPECT_EQ(again.exit_code(), 0);
  const std::string log = read_file((dir / "learner2.log").string());
  EXPECT_EQ(log.find("== learner: generation 1"), std::string::npos) << log;  // the candidate is its checkpoint
  EXPECT_NE(log.find("== learner: generation 2"), std::string::npos) << log;
  EXPECT_EQ(read_file(first.string()), first_bytes);
  EXPECT_TRUE(fs::exists(run / "models" / "gen-0002.eval"));
  std::ofstream(run / "stop") << "\n";
  ASSERT_TRUE(actor.wait_exit(60));
  EXPECT_TRUE(log_has(dir / "actor.log", "holds 'stop'; stopping"));
}

TEST(Roles, AnActorKeepsItsModelWhenThePromotedOneCannotBeRead) {
  const fs::path dir = fresh_dir("roles_bad_model"), run = dir / "run";
  fs::create_directories(run / "models");
  const fs::path good = run / "models" / "gen-0001.eval", bad = run / "models" / "gen-0002.eval";
  write_file_atomic(good.string(), nnue::serialize_network(nnue::Network::hand_equivalent({16, 8, 8})));
  write_file_atomic((run / "models" / "promoted.txt").string(), "gen-0001.eval\n");
  // Ten generations: the two model files count as candidates, so the actor feeds generation 3.
  BackgroundProcess actor(role_args("actor", run, {"--chunk-games", "5", "--generations", "10"}),
                          (dir / "actor.log").string());
  ASSERT_TRUE(wait_until([&] { return log_has(dir / "actor.log", "self-play with " + good.string()); }, 60));
  // A half-copied candidate, then the pointer to it.
  const std::string bytes = nnue::serialize_network(nnue::Network::hand_equivalent({16, 8, 8}));
  std::ofstream(bad, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  write_file_atomic((run / "models" / "promoted.txt").string(), "gen-0002.eval\n");
  ASSERT_TRUE(wait_until([&] { return log_has(dir / "actor.log", "cannot read the promoted model"); }, 60));
  const size_t seen = shards_in(run).size();
  ASSERT_TRUE(wait_until([&] { return shards_in(run).size() > seen + 1; }, 60));
  std::ofstream(run / "stop") << "\n";
  ASSERT_TRUE(actor.wait_exit(60));
  EXPECT_EQ(actor.exit_code(), 0);
  const std::string log = read_file((dir / "actor.log").string());
  EXPECT_NE(log.find(bad.string() + ": "), std::string::npos) << log;  // names the file
  EXPECT_NE(log.find("keeping " + good.string()), std::string::npos) << log;
  EXPECT_EQ(log.find("self-play with " + bad.string()), std::string::npos) << log;
  // Every shard was played with the good model.
  for (const fs::path& p : shards_in(run))
    EXPECT_EQ(selfplay::read_shard_meta(p.string()).model_id, good.string()) << p;
}

// Every file under dir (relative names) and its bytes, but for what any
// role writes when it starts: the config's copy and the run's clock.
std::map<std::string, std::string> run_files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().lexically_relative(dir).string();
    if (e.is_regular_file() && name != "config.toml" && name.rfind("clock/", 0) != 0)
      out[name] = read_file(e.path().string());
  }
  return out;
}

// The gatekeeper role checks the ladder's reference programs when it
// starts, as the run loop does: a reference that now names another program
// than the one the ladder knows under its name is refused by name before
// any work, though generation 1's candidate waits to be judged: no
// generation judged, no held-out game played, nothing written in the run
// or its ladder.
TEST(Roles, AGatekeeperRefusesAChangedLadderReferenceBeforeAnyWork) {
  const fs::path dir = fresh_dir("roles_gatekeeper_ladder"), run = dir / "run";
  fs::create_directories(run / "models");
  fs::create_directories(run / "ladder");
  write_file_atomic((run / "models" / "gen-0001.eval").string(),
                    nnue::serialize_network(nnue::Network::hand_equivalent({16, 8, 8})));
  write_file_atomic((run / "ladder" / "programs.txt").string(), "greedy\t/old/mushroom bot --agent greedy\n");
  const std::map<std::string, std::string> before = run_files(run);
  // One generation, and a time limit: a gatekeeper that did not refuse
  // would otherwise wait for a generation 2 that no learner makes.
  const ShellResult r = run_shell(std::string("timeout 300 '") + MUSHROOM_BIN + "' run --role gatekeeper --config " +
                                  kConfig + " --dir " + run.string() +
                                  " --poll-seconds 0.2 --parallel 1 --set ladder.every=1 --set run.generations=1" +
                                  " --set 'ladder.programs=greedy=builtin:greedy'");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("program 'greedy' of the ladder in " + (run / "ladder").string() +
                          " is '/old/mushroom bot --agent greedy'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("give the new program another name"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("move " + (run / "ladder").string() + " aside"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("== gatekeeper: generation 1"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(run / "heldout")) << "held-out games were played before the refusal";
  EXPECT_FALSE(fs::exists(run / "metrics" / "gen-0001.json"));
  EXPECT_EQ(run_files(run), before) << "the gatekeeper wrote in the run before the refusal";
}

TEST(Roles, BadRoleOptionsAreErrorsThatNameThem) {
  const fs::path dir = fresh_dir("roles_bad_options");
  const auto run = [&](const std::string& extra) {
    return run_shell(std::string("'") + MUSHROOM_BIN + "' run --config " + kConfig + " --dir " + (dir / "run").string() +
                     " " + extra);
  };
  ShellResult r = run("--role trainer");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("unknown role 'trainer'"), std::string::npos) << r.output;
  r = run("--role actor --actor-id 10000");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("actor index 10000"), std::string::npos) << r.output;
  r = run_shell("SLURM_ARRAY_TASK_ID=x '" + std::string(MUSHROOM_BIN) + "' run --role actor --config " + kConfig +
                " --dir " + (dir / "run").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("SLURM_ARRAY_TASK_ID = 'x'"), std::string::npos) << r.output;
  r = run("--role actor --chunk-games 100001");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--chunk-games must be at most 100000"), std::string::npos) << r.output;
  // With carry_games a chunk may start every worker's games in flight more
  // than it finishes, and those ids must stay inside the chunk.
  std::string carrying = read_file(kConfig);
  carrying.replace(carrying.find("[selfplay]\n"), 11, "[selfplay]\ncarry_games = true\n");
  write_file_atomic((dir / "carrying.toml").string(), carrying);
  r = run_shell(std::string("'") + MUSHROOM_BIN + "' run --role actor --chunk-games 99999 --config " +
                (dir / "carrying.toml").string() + " --dir " + (dir / "run").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--chunk-games plus the games in flight must be at most 100000"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace mushroom
