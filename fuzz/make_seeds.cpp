// Writes the seeds that are binary or need the engine to be right
// (fuzz/README.md, "The seeds"): a tiny conv-net model file and tiny
// shards, each as its bytes and as an HDF5 script (fuzz/hdf5_script.h);
// learned-evaluation headers and generated networks; games.csv files whose
// board seeds are the arena's. Run from the fuzz build:
//   build-fuzz/fuzz/fuzz_make_seeds fuzz/corpus
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "fuzz/hdf5_script.h"
#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"
#include "nn/features.h"
#include "nn/model_file.h"
#include "nnue/network.h"
#include "selfplay/shard.h"
#include "util/text.h"

using namespace mushroom;
namespace fs = std::filesystem;

namespace {

fs::path root;

void seed(const std::string& target, const std::string& name, char mode, const std::string& bytes) {
  fs::create_directories(root / target);
  write_file_atomic((root / target / name).string(), std::string(1, mode) + bytes);
}

template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A net as small as the config allows: no blocks, one channel.
void model_seeds() {
  nn::NetConfig config;
  config.blocks = 0;
  config.channels = config.policy_dim = config.value_hidden = 1;
  const nn::Model model = nn::random_model(config, 1);
  const std::string path = (root / "tiny.h5").string();
  nn::save_model(model, path);
  seed("model_file", "real-tiny-model", 0, read_file(path));
  fs::remove(path);

  fuzz::Hdf5ScriptWriter w(fuzz::model_file_vocabulary());
  w.string_attribute("format", "mushroom-model");
  w.int_attribute("format_version", nn::kModelFormatVersion);
  w.string_attribute("game", "mushroom");
  w.int_attribute("feature_version", nn::feature_version_of(config));
  w.int_attribute("input_planes", nn::input_planes(config));
  w.int_attribute("blocks", config.blocks);
  w.int_attribute("channels", config.channels);
  w.int_attribute("policy_dim", config.policy_dim);
  w.int_attribute("value_hidden", config.value_hidden);
  for (const nn::TensorSpec& spec : nn::tensor_specs(config)) {
    std::vector<uint8_t> dims(spec.shape.begin(), spec.shape.end());
    w.raw_dataset("/weights/" + spec.name, 5, dims, bytes_of(model.at(spec.name).data));
  }
  seed("model_file", "script-tiny-model", 1, w.script());
}

// Two positions of a greedy game, as samples of `schema`.
std::vector<selfplay::Sample> samples_of(const selfplay::SampleSchema& schema) {
  std::vector<selfplay::Sample> out;
  Position pos = random_board(2);
  for (int k = 0; k < 2; ++k) {
    const Move m = greedy_move(pos);
    selfplay::Sample s;
    if (schema.game == "mushroom") {
      s = selfplay::sample_from_position(pos, schema);
      s.policy = {{m.index(), 1.0f}};
      std::vector<int8_t> ownership(kCells, 0);
      selfplay::set_final_result(s, 3, ownership.data());
    } else {
      selfplay::EvalLabels labels;
      labels.search_score = 40 - 80 * k;
      labels.margin = 3;
      s = selfplay::eval_sample(pos, labels);
    }
    s.to_move = uint8_t(pos.to_move());
    s.ply = int16_t(k);
    s.outcome = k ? -1 : 1;
    s.game_id = 7;
    out.push_back(s);
    pos.apply(m);
  }
  return out;
}

// The shard write_shard writes, as a script: every value of the fields and
// the common datasets small enough for one byte but the policy moves.
std::string shard_script(const selfplay::SampleSchema& schema, const std::vector<selfplay::Sample>& samples) {
  fuzz::Hdf5ScriptWriter w(fuzz::shard_vocabulary());
  const uint8_t n = uint8_t(samples.size());
  w.string_attribute("format", "mushroom-selfplay");
  w.int_attribute("format_version", selfplay::kShardFormatVersion);
  w.string_attribute("game", schema.game);
  w.string_attribute("model_id", "seed");
  w.string_attribute("config_hash", "seed");
  w.int_attribute("generator_seed", 1);
  w.int_attribute("games", 1);
  w.int_attribute("samples", n);
  std::vector<int8_t> to_move, ply, offsets{0}, outcome, weight, value, game_id;
  std::vector<int32_t> moves;
  std::vector<int8_t> probs;
  for (const selfplay::Sample& s : samples) {
    to_move.push_back(int8_t(s.to_move));
    ply.push_back(int8_t(s.ply));
    for (const auto& [move, p] : s.policy) moves.push_back(move), probs.push_back(int8_t(p));
    offsets.push_back(int8_t(moves.size()));
    outcome.push_back(s.outcome);
    weight.push_back(1);
    value.push_back(0);
    game_id.push_back(int8_t(s.game_id));
  }
  const uint8_t p = uint8_t(moves.size());
  w.dataset("/to_move", 0, {n}, to_move);
  w.dataset("/ply", 2, {n}, ply);
  w.dataset("/policy_offsets", 4, {uint8_t(n + 1)}, offsets);
  w.raw_dataset("/policy_moves", 3, {p}, bytes_of(moves));
  w.dataset("/policy_probs", 5, {p}, probs);
  w.dataset("/outcome", 1, {n}, outcome);
  w.dataset("/weight", 5, {n}, weight);
  w.dataset("/search_value", 5, {n}, value);
  w.dataset("/game_id", 4, {n}, game_id);
  for (const selfplay::SampleField& field : schema.fields) {
    std::vector<int8_t> values;
    for (const selfplay::Sample& s : samples)
      for (int k = 0; k < field.width; ++k) values.push_back(int8_t(s.get(field, k)));
    const int type = field.type == selfplay::FieldType::kU8 ? 0 : field.type == selfplay::FieldType::kI8 ? 1
                   : field.type == selfplay::FieldType::kI16 ? 2 : 3;
    std::vector<uint8_t> dims{n};
    if (field.width > 1) dims.push_back(uint8_t(field.width));
    w.dataset("/" + field.name, type, dims, values);
  }
  return w.script();
}

void shard_seeds() {
  for (const std::string game : {"mushroom", "mushroom-eval3"}) {
    const selfplay::SampleSchema& schema = selfplay::sample_schema(game);
    const auto samples = samples_of(schema);
    selfplay::ShardMeta meta;
    meta.model_id = "seed";
    meta.config_hash = "seed";
    meta.games = 1;
    meta.game = game;
    const std::string path = (root / "tiny-shard.h5").string();
    selfplay::write_shard(path, meta, samples);
    seed("shard", "real-" + game, 0, read_file(path));
    fs::remove(path);
    seed("shard", "script-" + game, 1, shard_script(schema, samples));
  }
}

// Every magic's header with the checksum's 8 bytes (too short: refused by
// size), and generated networks of a few shapes.
void eval_seeds() {
  nnue::Shape plain, buckets, mobility;
  plain.hidden = buckets.hidden = mobility.hidden = 16;
  buckets.phase_buckets = 4, buckets.seat_buckets = 2;
  mobility.mobility = true;
  for (const auto& [name, shape] : {std::pair{"msheval2", plain}, {"msheval3", buckets}, {"msheval4", mobility}}) {
    const std::string bytes = nnue::serialize_network(nnue::Network::hand_equivalent(shape));
    const size_t header = 8 + 4 * (shape.mobility ? 6 : shape.stacks() > 1 ? 5 : 3);
    seed("eval_file", std::string("header-") + name, 0, bytes.substr(0, header + 8));
    seed("eval_file", std::string("checksummed-header-") + name, 1, bytes.substr(0, header + 8));
  }
  // Shape bytes (H 16, L1 8, L2 8, 1 phase, 1 seat, no mobility), then
  // a scale byte and values for the first tensor; the rest repeats them.
  seed("eval_file", "generated-small", 2, std::string("\x00\x07\x07\x00\x00\x00\x10\x01\x02\x03\x80\x7f", 12));
  seed("eval_file", "generated-buckets", 2, std::string("\x01\x0f\x0f\x03\x01\x01\x12\x40\x00\xc0\xff", 11));
}

// games.csv of a match between A and B on seeded boards (first byte 0) and
// on given boards (1, board_seed 0), as the arena writes it.
GameRecord game(bool given, int board, bool a_first) {
  GameRecord r;
  r.first = a_first ? "A" : "B", r.second = a_first ? "B" : "A";
  r.board = board;
  r.board_seed = given ? 0 : arena_board_seed(1, board);
  r.first_score = 41, r.second_score = 38;
  r.outcome = 1;
  char log[32];
  std::snprintf(log, sizeof log, "game-%04d.log", 2 * board + (a_first ? 0 : 1));
  r.log = log;
  return r;
}

std::string games_file(const std::vector<GameRecord>& records) {
  std::string text = std::string(kGamesFileHeader) + "\n";
  for (const GameRecord& r : records) text += format_game_record(r) + "\n";
  return text;
}

void games_seeds() {
  seed("games_csv", "seeded-match", 0,
       games_file({game(false, 0, true), game(false, 0, false), game(false, 1, true), game(false, 3, false)}));
  seed("games_csv", "given-boards", 1, games_file({game(true, 0, true), game(true, 1, false), game(true, 2, true)}));
  GameRecord forfeit = game(false, 2, true);
  forfeit.first_score = forfeit.second_score = 0;
  forfeit.outcome = -1;
  forfeit.forfeit_by = "A";
  forfeit.reason = "illegal move \"A 1 2\", expected OK";
  seed("games_csv", "forfeit-with-quotes", 0, games_file({forfeit}));
  const std::string whole = games_file({game(false, 0, true), game(false, 1, true)});
  seed("games_csv", "torn-last-record", 0, whole.substr(0, whole.size() - 9));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds CORPUS_ROOT (fuzz/corpus)\n");
    return 2;
  }
  root = argv[1];
  model_seeds();
  shard_seeds();
  eval_seeds();
  games_seeds();
  return 0;
}
