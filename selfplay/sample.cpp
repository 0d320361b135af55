#include "selfplay/sample.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "blockgame/blockgame_game.h"
#include "tictactoe/tictactoe.h"

namespace mushroom::selfplay {

namespace {

int type_bytes(FieldType t) {
  switch (t) {
    case FieldType::kU8:
    case FieldType::kI8: return 1;
    case FieldType::kI16: return 2;
    case FieldType::kI32: return 4;
  }
  return 4;
}

}  // namespace

SampleSchema::SampleSchema(std::string game_name, std::vector<SampleField> field_list, int policy, bool has_draws)
    : game(std::move(game_name)), fields(std::move(field_list)), policy_size(policy), draws(has_draws) {
  for (SampleField& f : fields) {
    f.offset = bytes;
    bytes += f.width * type_bytes(f.type);
  }
}

const SampleField& SampleSchema::field(const std::string& name) const {
  for (const SampleField& f : fields)
    if (f.name == name) return f;
  throw std::invalid_argument(game + " samples have no field '" + name + "'");
}

int32_t Sample::get(const SampleField& f, int k) const {
  const uint8_t* p = data.data() + f.offset + k * type_bytes(f.type);
  switch (f.type) {
    case FieldType::kU8: return *p;
    case FieldType::kI8: return int8_t(*p);
    case FieldType::kI16: {
      int16_t v;
      std::memcpy(&v, p, sizeof v);
      return v;
    }
    case FieldType::kI32: {
      int32_t v;
      std::memcpy(&v, p, sizeof v);
      return v;
    }
  }
  return 0;
}

void Sample::set(const SampleField& f, int k, int32_t value) {
  uint8_t* p = data.data() + f.offset + k * type_bytes(f.type);
  switch (f.type) {
    case FieldType::kU8: *p = uint8_t(value); break;
    case FieldType::kI8: *p = uint8_t(int8_t(value)); break;
    case FieldType::kI16: {
      const int16_t v = int16_t(value);
      std::memcpy(p, &v, sizeof v);
      break;
    }
    case FieldType::kI32: std::memcpy(p, &value, sizeof value); break;
  }
}

Sample empty_sample(const SampleSchema& schema) {
  Sample s;
  s.data.assign(size_t(schema.bytes), 0);
  return s;
}

// ---- the mushroom game ----

const SampleSchema& mushroom_schema() {
  static const SampleSchema schema("mushroom",
                                   {{"digits", FieldType::kU8, kCells, 0, 9},
                                    {"owners", FieldType::kU8, kCells, 0, 2},
                                    {"last_pass", FieldType::kU8, 1, 0, 1},
                                    {"margin", FieldType::kI16, 1, -kCells, kCells},
                                    {"ownership", FieldType::kI8, kCells, -1, 1}},
                                   kPolicySize, true);
  return schema;
}

namespace {
// The mushroom fields, looked up once.
struct MushroomFields {
  const SampleField& digits = mushroom_schema().field("digits");
  const SampleField& owners = mushroom_schema().field("owners");
  const SampleField& last_pass = mushroom_schema().field("last_pass");
  const SampleField& margin = mushroom_schema().field("margin");
  const SampleField& ownership = mushroom_schema().field("ownership");
};
const MushroomFields& mushroom_fields() {
  static const MushroomFields f;
  return f;
}
}  // namespace

Sample sample_from_position(const Position& pos, const SampleSchema& schema) {
  const bool plain = &schema == &mushroom_schema();
  const SampleField& digits = plain ? mushroom_fields().digits : schema.field("digits");
  const SampleField& owners = plain ? mushroom_fields().owners : schema.field("owners");
  Sample s = empty_sample(schema);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      s.set(digits, r * kCols + c, pos.digit(r, c));
      s.set(owners, r * kCols + c, int(pos.owner(r, c)));
    }
  s.set(plain ? mushroom_fields().last_pass : schema.field("last_pass"), 0, pos.last_move_was_pass() ? 1 : 0);
  s.to_move = uint8_t(pos.to_move());
  s.ply = int16_t(pos.ply());
  return s;
}

Position position_of(const Sample& s, const SampleSchema& schema) {
  const bool plain = &schema == &mushroom_schema();
  const SampleField& digits = plain ? mushroom_fields().digits : schema.field("digits");
  const SampleField& owners = plain ? mushroom_fields().owners : schema.field("owners");
  Position p;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      p.set_digit(r, c, s.get(digits, r * kCols + c));
      p.set_owner(r, c, Owner(s.get(owners, r * kCols + c)));
    }
  p.set_to_move(Player(s.to_move));
  p.set_last_pass(s.get(plain ? mushroom_fields().last_pass : schema.field("last_pass")) != 0);
  p.set_ply(s.ply);
  return p;
}

int margin_of(const Sample& s) { return s.get(mushroom_fields().margin); }

int ownership_of(const Sample& s, int cell) { return s.get(mushroom_fields().ownership, cell); }

void set_final_result(Sample& s, int margin, const int8_t* ownership) {
  const MushroomFields& f = mushroom_fields();
  s.set(f.margin, 0, margin);
  for (int c = 0; c < kCells; ++c) s.set(f.ownership, c, ownership[c]);
}

// ---- the learned alpha-beta evaluation ----

const SampleSchema& mushroom_eval_v1_schema() {
  static const SampleSchema schema("mushroom-eval",
                                   {{"digits", FieldType::kU8, kCells, 0, 9},
                                    {"owners", FieldType::kU8, kCells, 0, 2},
                                    {"last_pass", FieldType::kU8, 1, 0, 1},
                                    {"search_score", FieldType::kI16, 1, -32000, 32000},
                                    {"margin", FieldType::kI16, 1, -kCells, kCells},
                                    {"teacher", FieldType::kI16, 1, -1000, 1000},
                                    {"has_teacher", FieldType::kU8, 1, 0, 1}},
                                   0, true);
  return schema;
}

const SampleSchema& mushroom_eval_v2_schema() {
  static const SampleSchema schema("mushroom-eval2",
                                   {{"cells", FieldType::kU8, kCells, 0, 11},
                                    {"last_pass", FieldType::kU8, 1, 0, 1},
                                    {"search_score", FieldType::kI16, 1, -32000, 32000},
                                    {"exact", FieldType::kU8, 1, 0, 1},
                                    {"margin", FieldType::kI16, 1, -kCells, kCells},
                                    {"teacher", FieldType::kI16, 1, -1000, 1000},
                                    {"has_teacher", FieldType::kU8, 1, 0, 1}},
                                   0, true);
  return schema;
}

const SampleSchema& mushroom_eval_schema() {
  static const SampleSchema schema("mushroom-eval3",
                                   {{"cells", FieldType::kU8, kCells, 0, 11},
                                    {"last_pass", FieldType::kU8, 1, 0, 1},
                                    {"search_score", FieldType::kI16, 1, -32000, 32000},
                                    {"exact", FieldType::kU8, 1, 0, 1},
                                    {"random_move", FieldType::kU8, 1, 0, 1},
                                    {"margin", FieldType::kI16, 1, -kCells, kCells},
                                    {"teacher", FieldType::kI16, 1, -1000, 1000},
                                    {"has_teacher", FieldType::kU8, 1, 0, 1}},
                                   0, true);
  return schema;
}

bool is_eval_schema(const std::string& game) {
  return game == mushroom_eval_schema().game || game == mushroom_eval_v2_schema().game ||
         game == mushroom_eval_v1_schema().game;
}

std::string eval_schema_names() {
  return mushroom_eval_schema().game + ", " + mushroom_eval_v2_schema().game + " or " + mushroom_eval_v1_schema().game;
}

namespace {
constexpr int kFirstOwnedCode = 10, kSecondOwnedCode = 11;

struct EvalFields {
  const SampleField& cells = mushroom_eval_schema().field("cells");
  const SampleField& last_pass = mushroom_eval_schema().field("last_pass");
  const SampleField& search_score = mushroom_eval_schema().field("search_score");
  const SampleField& exact = mushroom_eval_schema().field("exact");
  const SampleField& random_move = mushroom_eval_schema().field("random_move");
  const SampleField& margin = mushroom_eval_schema().field("margin");
  const SampleField& teacher = mushroom_eval_schema().field("teacher");
  const SampleField& has_teacher = mushroom_eval_schema().field("has_teacher");
};
const EvalFields& eval_fields() {
  static const EvalFields f;
  return f;
}

bool is_v1(const SampleSchema& schema) { return &schema == &mushroom_eval_v1_schema(); }
bool is_v2(const SampleSchema& schema) { return &schema == &mushroom_eval_v2_schema(); }
void check_eval_schema(const SampleSchema& schema) {
  if (&schema != &mushroom_eval_schema() && !is_v1(schema) && !is_v2(schema))
    throw std::invalid_argument("a " + schema.game + " sample is not a learned-evaluation sample");
}
}  // namespace

int eval_cell_code(const Position& pos, int r, int c) {
  const int d = pos.digit(r, c);
  if (d) return d;
  const Owner o = pos.owner(r, c);
  return o == Owner::kNone ? 0 : o == Owner::kFirst ? kFirstOwnedCode : kSecondOwnedCode;
}

void set_eval_cell(Position& pos, int r, int c, int code) {
  if (code >= 1 && code <= 9) pos.set_digit(r, c, code);
  else if (code == kFirstOwnedCode) pos.set_owner(r, c, Owner::kFirst);
  else if (code == kSecondOwnedCode) pos.set_owner(r, c, Owner::kSecond);
}

Sample eval_sample(const Position& pos, const EvalLabels& labels) {
  const EvalFields& f = eval_fields();
  Sample s = empty_sample(mushroom_eval_schema());
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) s.set(f.cells, r * kCols + c, eval_cell_code(pos, r, c));
  s.set(f.last_pass, 0, pos.last_move_was_pass() ? 1 : 0);
  s.to_move = uint8_t(pos.to_move());
  s.ply = int16_t(pos.ply());
  s.set(f.search_score, 0, std::clamp(labels.search_score, -32000, 32000));
  s.set(f.exact, 0, labels.exact ? 1 : 0);
  s.set(f.random_move, 0, labels.random_move ? 1 : 0);
  s.set(f.margin, 0, labels.margin);
  s.set(f.teacher, 0, labels.has_teacher ? std::clamp(labels.teacher, -1000, 1000) : 0);
  s.set(f.has_teacher, 0, labels.has_teacher ? 1 : 0);
  return s;
}

EvalLabels eval_labels_of(const Sample& s, const SampleSchema& schema) {
  check_eval_schema(schema);
  if (is_v1(schema) || is_v2(schema))
    return {s.get(schema.field("search_score")), s.get(schema.field("margin")),
            s.get(schema.field("has_teacher")) != 0, s.get(schema.field("teacher")),
            is_v2(schema) && s.get(schema.field("exact")) != 0, false};
  const EvalFields& f = eval_fields();
  return {s.get(f.search_score), s.get(f.margin),         s.get(f.has_teacher) != 0,
          s.get(f.teacher),      s.get(f.exact) != 0,     s.get(f.random_move) != 0};
}

Position eval_position_of(const Sample& s, const SampleSchema& schema) {
  check_eval_schema(schema);
  if (is_v1(schema)) return position_of(s, schema);
  const SampleField& cells = is_v2(schema) ? schema.field("cells") : eval_fields().cells;
  const SampleField& last_pass = is_v2(schema) ? schema.field("last_pass") : eval_fields().last_pass;
  Position p;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) set_eval_cell(p, r, c, s.get(cells, r * kCols + c));
  p.set_to_move(Player(s.to_move));
  p.set_last_pass(s.get(last_pass) != 0);
  p.set_ply(s.ply);
  return p;
}

void set_eval_margin(Sample& s, int margin) { s.set(eval_fields().margin, 0, margin); }

// ---- learnable games ----

SampleSchema state_schema(std::string game, const std::vector<StateField>& state_fields, int policy_size,
                          bool draws) {
  std::vector<SampleField> fields;
  for (const StateField& f : state_fields) {
    const FieldType type = f.lo >= 0 && f.hi <= 255        ? FieldType::kU8
                           : f.lo >= -128 && f.hi <= 127     ? FieldType::kI8
                           : f.lo >= -32768 && f.hi <= 32767 ? FieldType::kI16
                                                             : FieldType::kI32;
    fields.push_back({f.name, type, f.width, f.lo, f.hi});
  }
  return SampleSchema(std::move(game), std::move(fields), policy_size, draws);
}

// ---- the registry: one line per game ----

const SampleSchema& sample_schema(const std::string& game) {
  static const SampleSchema* const schemas[] = {
      &mushroom_schema(),
      &mushroom_eval_schema(),
      &mushroom_eval_v2_schema(),
      &mushroom_eval_v1_schema(),
      &learnable_schema<blockgame::BlockGame>("blockgame", /*draws=*/false),
      &learnable_schema<tictactoe::TicTacToe>("tictactoe", /*draws=*/true),
  };
  std::string known;
  for (const SampleSchema* schema : schemas) {
    if (schema->game == game) return *schema;
    known += (known.empty() ? "" : ", ") + schema->game;
  }
  throw std::invalid_argument("no sample schema for game '" + game + "' (known: " + known + ")");
}

}  // namespace mushroom::selfplay
