// The mushroom-game position: digits, owners, side to move and pass state,
// held as per-row bitmasks so that move generation and scoring are cheap.
#pragma once
#include <array>
#include <cstdint>

#include "mushroom/move.h"
#include "util/bits.h"

namespace mushroom {

enum Player : uint8_t { kFirst = 0, kSecond = 1 };
// "FIRST" / "SECOND", as the protocol and the game logs spell them.
const char* player_name(Player p);
enum class Owner : uint8_t { kNone = 0, kFirst = 1, kSecond = 2 };

// Everything apply() changes, so undo() can restore it exactly.
struct Undo {
  Move move;
  uint64_t hash;
  bool last_pass;
  bool game_over;
  uint16_t ply;
  std::array<uint32_t, kRows> owner_first, owner_second;
  std::array<std::array<uint8_t, kCols>, kRows> digits;  // rows r1..r2 of the rectangle
};

class Position {
 public:
  // An empty board (all zeros, nobody owns anything), first player to move.
  Position();
  // A fresh game on these digits.
  static Position from_digits(const std::array<std::array<uint8_t, kCols>, kRows>& digits);

  int digit(int r, int c) const { return digits_[r][c]; }
  Owner owner(int r, int c) const;
  // Row masks: bit c set when the cell holds a mushroom / is owned.
  uint32_t nonzero_mask(int r) const { return nonzero_[r]; }
  uint32_t owned_mask(Player p, int r) const { return owned_[p][r]; }
  // Digit rows padded to 32 bytes with zeros past column 16 (for SIMD sums).
  const uint8_t* digit_row(int r) const { return digits_[r]; }

  Player to_move() const { return to_move_; }
  bool last_move_was_pass() const { return last_pass_; }
  bool game_over() const { return game_over_; }
  int ply() const { return ply_; }
  uint64_t hash() const { return hash_; }
  int score(Player p) const;
  // Cells owned by the side to move minus the opponent's.
  int margin_for_side_to_move() const { return score(to_move_) - score(Player(1 - to_move_)); }
  int mushrooms_left() const;

  // Checks a rectangle against the rules; pass is always legal while the
  // game runs. why (if given) receives the reason on failure.
  bool is_legal(const Move& m, const char** why = nullptr) const;
  // Sum of digits inside the rectangle.
  int rect_sum(const Move& m) const;

  // Plays m (legality is the caller's business; see is_legal).
  void apply(const Move& m, Undo* undo = nullptr);
  void undo(const Undo& u);

  // Setters used by parsers and tests; they keep the hash consistent.
  void set_digit(int r, int c, int d);
  void set_owner(int r, int c, Owner o);
  void set_to_move(Player p);
  void set_last_pass(bool passed);
  void set_game_over(bool over);
  void set_ply(int ply) { ply_ = uint16_t(ply); }

  uint64_t compute_hash_from_scratch() const;
  bool operator==(const Position& o) const;

 private:
  alignas(32) uint8_t digits_[kRows][32];
  std::array<uint32_t, kRows> nonzero_;
  std::array<uint32_t, kRows> owned_[2];
  uint64_t hash_ = 0;
  uint16_t ply_ = 0;
  Player to_move_ = kFirst;
  bool last_pass_ = false;
  bool game_over_ = false;
};

// A mask of columns c1..c2 inclusive.
constexpr uint32_t column_span(int c1, int c2) { return ((2u << c2) - 1) & ~((1u << c1) - 1); }

// What taking the rectangle rows r1..r2, columns c1..c2 does for the side to
// move: the opponent's cells it takes (stolen), and the change in its score
// margin (gain): every cell it did not own, the stolen ones counted twice
// because the opponent loses them.
struct RectangleTake {
  int stolen = 0, gain = 0;
};
inline RectangleTake rectangle_take(const Position& pos, int r1, int c1, int r2, int c2) {
  const Player me = pos.to_move(), them = Player(1 - me);
  const uint32_t span = column_span(c1, c2);
  RectangleTake take;
  for (int r = r1; r <= r2; ++r) {
    const int stolen = popcount(span & pos.owned_mask(them, r));
    take.stolen += stolen;
    take.gain += popcount(span & ~pos.owned_mask(me, r)) + stolen;
  }
  return take;
}
// The same for a move; the pass takes nothing.
inline RectangleTake rectangle_take(const Position& pos, const Move& m) {
  return m.is_pass() ? RectangleTake{} : rectangle_take(pos, m.r1, m.c1, m.r2, m.c2);
}
// The change in the mover's score margin if the mover plays m: cells it did
// not own before, plus the opponent's cells it steals (they count twice).
inline int margin_gain(const Position& pos, const Move& m) { return rectangle_take(pos, m).gain; }
// The cells the side to move's score gains by m: every cell it did not own.
inline int cells_taken(const Position& pos, const Move& m) {
  const RectangleTake take = rectangle_take(pos, m);
  return take.gain - take.stolen;
}

}  // namespace mushroom
