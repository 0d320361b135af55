// A training sample of any game, and the schema that says what its game
// keeps per sample.
//
// Every sample has the same targets (the search's policy, the outcome, a
// weight) and the same bookkeeping (side to move, ply, game id, the search's
// value). What differs between games is the rest: the position, and any
// extra targets (the mushroom game's final margin and ownership map). A
// game declares those as fields, each a fixed-width row of small integers
// with a type and a range; the shard writes each field as its own dataset
// and checks its range on reading, and a sample stores them packed, each in
// its own type, so a sample costs what its game needs.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mushroom/position.h"
#include "search/game.h"

namespace mushroom::selfplay {

enum class FieldType : uint8_t { kU8, kI8, kI16, kI32 };

struct SampleField {
  std::string name;  // the shard's dataset is /name
  FieldType type;
  int width;         // values per sample (1: a dataset of shape [N], else [N, width])
  int32_t lo, hi;    // every value lies in [lo, hi]
  int offset = 0;    // bytes into Sample::data (set by the schema)
};

struct SampleSchema {
  std::string game;                 // the shard's "game" attribute
  std::vector<SampleField> fields;  // in dataset-reading order
  int policy_size = 0;              // policy indices lie in [0, policy_size); 0: no policy targets
  bool draws = true;                // false: an outcome of 0 is corrupt
  int bytes = 0;                    // packed size of the fields

  SampleSchema(std::string game, std::vector<SampleField> fields, int policy_size, bool draws);
  const SampleField& field(const std::string& name) const;  // throws std::invalid_argument
};

// The schema of a game by name ("mushroom", "blockgame", "tictactoe");
// throws std::invalid_argument naming an unknown game.
const SampleSchema& sample_schema(const std::string& game);

struct Sample {
  std::vector<uint8_t> data;  // the schema's fields, packed
  uint8_t to_move = 0;
  int16_t ply = 0;
  std::vector<std::pair<int32_t, float>> policy;  // (policy index, probability)
  int8_t outcome = 0;         // +1 win, 0 draw, -1 loss for the side to move
  float weight = 1;
  float search_value = 0;     // the search's value at the root (for inspection)
  int64_t game_id = 0;

  // Field k-th values, typed as the schema says.
  int32_t get(const SampleField& f, int k = 0) const;
  void set(const SampleField& f, int k, int32_t value);
};

// A sample of the schema's shape, every field 0.
Sample empty_sample(const SampleSchema& schema);

// The mushroom game: digits [170] (0 = taken), owners [170] (0 nobody, 1
// first player, 2 second), last_pass, and the targets margin (final score
// margin) and ownership [170] (final owner: +1 side to move, -1 opponent).
const SampleSchema& mushroom_schema();
// The position part, of any schema with the digits, owners and last_pass
// fields (mushroom, mushroom-eval).
Sample sample_from_position(const Position& pos, const SampleSchema& schema = mushroom_schema());
Position position_of(const Sample& s, const SampleSchema& schema = mushroom_schema());
int margin_of(const Sample& s);
int ownership_of(const Sample& s, int cell);
// Sets the targets once the game is over.
void set_final_result(Sample& s, int margin, const int8_t* ownership);

// The learned alpha-beta evaluation's samples (selfplay/shard.h documents
// the fields): positions of alpha-beta self-play with the search's score,
// the final margin and optionally a teacher net's value; no policy.
// Self-play writes schema 3, "mushroom-eval3": each cell in one byte (its
// digit, or who owns it), 170 bytes a position before compression, an
// exact flag for positions the endgame solver labelled, and a random_move
// flag: the move played from the position was a random one (self-play's
// random_move_fraction), so the next position does not follow from its
// search. Schema 2, "mushroom-eval2" (no random_move flag), and schema 1,
// "mushroom-eval" (digits and owners apart, no flags), are still read.
const SampleSchema& mushroom_eval_schema();     // schema 3: what self-play writes
const SampleSchema& mushroom_eval_v2_schema();  // schema 2: read only
const SampleSchema& mushroom_eval_v1_schema();  // schema 1: read only
// Whether `schema` is one of the three (by name).
bool is_eval_schema(const std::string& game);
// "mushroom-eval3, mushroom-eval2 or mushroom-eval", for messages.
std::string eval_schema_names();
struct EvalLabels {
  int search_score = 0;  // 1/16 cells, side to move
  int margin = 0;        // final, side to move (set when the game ends)
  bool has_teacher = false;
  int teacher = 0;       // value * 1000
  bool exact = false;    // search_score is the proven final margin (times 16) under best play
  bool random_move = false;  // the move played from the position was random (schema 3; false before)
};
// A cell's code in schema 2's cells field: 1..9 its digit, 10 the first
// player's, 11 the second player's, 0 empty and nobody's.
int eval_cell_code(const Position& pos, int r, int c);
// Sets cell (r, c) of a position being built from its code (the inverse).
void set_eval_cell(Position& pos, int r, int c, int code);
Sample eval_sample(const Position& pos, const EvalLabels& labels);  // schema 3
// Of a sample of either schema.
EvalLabels eval_labels_of(const Sample& s, const SampleSchema& schema = mushroom_eval_schema());
Position eval_position_of(const Sample& s, const SampleSchema& schema = mushroom_eval_schema());
void set_eval_margin(Sample& s, int margin);  // schema 3

// A learnable game (search/game.h): its state fields, each stored in the
// narrowest type its range fits; no targets beyond the common ones.
SampleSchema state_schema(std::string game, const std::vector<StateField>& fields, int policy_size, bool draws);

// G's schema under its registered name (made once; sample_schema() lists it).
template <typename G>
const SampleSchema& learnable_schema(const std::string& game, bool draws) {
  static const SampleSchema schema =
      state_schema(game, G::state_fields(), G::kSlotsPerCell * G::kBoardRows * G::kBoardCols, draws);
  return schema;
}

// A sample of G's state (the state part: fields, side to move, ply).
template <typename G>
Sample sample_of_state(const SampleSchema& schema, const typename G::State& state) {
  Sample s = empty_sample(schema);
  std::vector<int32_t> values;
  for (const SampleField& f : schema.fields) values.resize(values.size() + size_t(f.width));
  G::write_state(state, values.data());
  size_t at = 0;
  for (const SampleField& f : schema.fields)
    for (int k = 0; k < f.width; ++k) s.set(f, k, values[at++]);
  s.to_move = uint8_t(G::to_move(state));
  s.ply = int16_t(G::ply(state));
  return s;
}

template <typename G>
typename G::State state_of_sample(const SampleSchema& schema, const Sample& s) {
  std::vector<int32_t> values;
  for (const SampleField& f : schema.fields)
    for (int k = 0; k < f.width; ++k) values.push_back(s.get(f, k));
  return G::read_state(values.data(), s.to_move, s.ply);
}

}  // namespace mushroom::selfplay
