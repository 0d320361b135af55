#include "mushroom/position.h"

#include "util/bits.h"
#include <cstring>
#include <string>

#include "mushroom/zobrist.h"

namespace mushroom {

const char* player_name(Player p) { return p == kFirst ? "FIRST" : "SECOND"; }

std::string to_string(const Move& m) {
  if (m.is_pass()) return "-1 -1 -1 -1";
  return std::to_string(m.r1) + " " + std::to_string(m.c1) + " " + std::to_string(m.r2) + " " +
         std::to_string(m.c2);
}

Position::Position() {
  std::memset(digits_, 0, sizeof(digits_));
  nonzero_.fill(0);
  owned_[0].fill(0);
  owned_[1].fill(0);
  hash_ = compute_hash_from_scratch();
}

Position Position::from_digits(const std::array<std::array<uint8_t, kCols>, kRows>& digits) {
  Position p;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) p.set_digit(r, c, digits[r][c]);
  return p;
}

Owner Position::owner(int r, int c) const {
  if (owned_[0][r] >> c & 1) return Owner::kFirst;
  if (owned_[1][r] >> c & 1) return Owner::kSecond;
  return Owner::kNone;
}

int Position::score(Player p) const {
  int total = 0;
  for (int r = 0; r < kRows; ++r) total += popcount(owned_[p][r]);
  return total;
}

int Position::mushrooms_left() const {
  int total = 0;
  for (int r = 0; r < kRows; ++r) total += popcount(nonzero_[r]);
  return total;
}

int Position::rect_sum(const Move& m) const {
  int sum = 0;
  for (int r = m.r1; r <= m.r2; ++r)
    for (int c = m.c1; c <= m.c2; ++c) sum += digits_[r][c];
  return sum;
}

bool Position::is_legal(const Move& m, const char** why) const {
  auto fail = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (game_over_) return fail("the game is over");
  if (m.is_pass()) {
    if (m.c1 != -1 || m.r2 != -1 || m.c2 != -1) return fail("a pass must be -1 -1 -1 -1");
    return true;
  }
  if (!m.on_board()) return fail("rectangle out of range");
  if (rect_sum(m) != 10) return fail("the digits inside do not sum to 10");
  const uint32_t span = column_span(m.c1, m.c2);
  uint32_t any_row = 0;
  for (int r = m.r1; r <= m.r2; ++r) any_row |= nonzero_[r];
  if (!(nonzero_[m.r1] & span) || !(nonzero_[m.r2] & span) || !(any_row >> m.c1 & 1) ||
      !(any_row >> m.c2 & 1))
    return fail("a side of the rectangle has no mushroom on it");
  return true;
}

void Position::apply(const Move& m, Undo* undo) {
  const auto& keys = zobrist::keys();
  if (undo) {
    undo->move = m;
    undo->hash = hash_;
    undo->last_pass = last_pass_;
    undo->game_over = game_over_;
    undo->ply = ply_;
  }
  if (m.is_pass()) {
    if (last_pass_) {
      game_over_ = true;
      hash_ ^= keys.game_over;
    } else {
      hash_ ^= keys.last_pass;
    }
    last_pass_ = true;
  } else {
    if (undo) {
      undo->owner_first = owned_[0];
      undo->owner_second = owned_[1];
      for (int r = m.r1; r <= m.r2; ++r) std::memcpy(undo->digits[r].data(), digits_[r], kCols);
    }
    const Player mover = to_move_;
    const uint32_t span = column_span(m.c1, m.c2);
    for (int r = m.r1; r <= m.r2; ++r) {
      for (int c = m.c1; c <= m.c2; ++c) {
        const int cell = r * kCols + c;
        hash_ ^= keys.digit[cell][digits_[r][c]];
        hash_ ^= keys.owner[cell][int(owner(r, c))];
        hash_ ^= keys.owner[cell][mover + 1];
        digits_[r][c] = 0;
      }
      nonzero_[r] &= ~span;
      owned_[mover][r] |= span;
      owned_[1 - mover][r] &= ~span;
    }
    if (last_pass_) hash_ ^= keys.last_pass;
    last_pass_ = false;
  }
  to_move_ = Player(1 - to_move_);
  hash_ ^= keys.second_to_move;
  ++ply_;
}

void Position::undo(const Undo& u) {
  const Move& m = u.move;
  if (!m.is_pass()) {
    owned_[0] = u.owner_first;
    owned_[1] = u.owner_second;
    for (int r = m.r1; r <= m.r2; ++r) {
      std::memcpy(digits_[r], u.digits[r].data(), kCols);
      uint32_t mask = 0;
      for (int c = 0; c < kCols; ++c) mask |= uint32_t(digits_[r][c] != 0) << c;
      nonzero_[r] = mask;
    }
  }
  hash_ = u.hash;
  last_pass_ = u.last_pass;
  game_over_ = u.game_over;
  ply_ = u.ply;
  to_move_ = Player(1 - to_move_);
}

void Position::set_digit(int r, int c, int d) {
  const auto& keys = zobrist::keys();
  const int cell = r * kCols + c;
  hash_ ^= keys.digit[cell][digits_[r][c]];
  digits_[r][c] = uint8_t(d);
  hash_ ^= keys.digit[cell][d];
  if (d) nonzero_[r] |= 1u << c;
  else nonzero_[r] &= ~(1u << c);
}

void Position::set_owner(int r, int c, Owner o) {
  const auto& keys = zobrist::keys();
  const int cell = r * kCols + c;
  hash_ ^= keys.owner[cell][int(owner(r, c))];
  owned_[0][r] &= ~(1u << c);
  owned_[1][r] &= ~(1u << c);
  if (o == Owner::kFirst) owned_[0][r] |= 1u << c;
  if (o == Owner::kSecond) owned_[1][r] |= 1u << c;
  hash_ ^= keys.owner[cell][int(o)];
}

void Position::set_to_move(Player p) {
  if (p != to_move_) hash_ ^= zobrist::keys().second_to_move;
  to_move_ = p;
}

void Position::set_last_pass(bool passed) {
  if (passed != last_pass_) hash_ ^= zobrist::keys().last_pass;
  last_pass_ = passed;
}

void Position::set_game_over(bool over) {
  if (over != game_over_) hash_ ^= zobrist::keys().game_over;
  game_over_ = over;
}

uint64_t Position::compute_hash_from_scratch() const {
  const auto& keys = zobrist::keys();
  uint64_t h = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      h ^= keys.digit[r * kCols + c][digits_[r][c]];
      h ^= keys.owner[r * kCols + c][int(owner(r, c))];
    }
  if (to_move_ == kSecond) h ^= keys.second_to_move;
  if (last_pass_) h ^= keys.last_pass;
  if (game_over_) h ^= keys.game_over;
  return h;
}

bool Position::operator==(const Position& o) const {
  for (int r = 0; r < kRows; ++r)
    if (std::memcmp(digits_[r], o.digits_[r], kCols) != 0) return false;
  return nonzero_ == o.nonzero_ && owned_[0] == o.owned_[0] && owned_[1] == o.owned_[1] &&
         hash_ == o.hash_ && ply_ == o.ply_ && to_move_ == o.to_move_ &&
         last_pass_ == o.last_pass_ && game_over_ == o.game_over_;
}

}  // namespace mushroom
