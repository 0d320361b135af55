// Tic-tac-toe behind the search interface (search/game.h): the smallest
// complete game the generic search, and later the learning pipeline, can be
// checked on end to end. Cells are numbered r * 3 + c; an action is the cell
// the side to move marks, and also its policy slot.
//
// The net's input planes (3x3), layout version 1: 0 the side to move's
// marks, 1 the opponent's, 2 empty cells, 3 constant 1.
#pragma once
#include <cstdint>

#include "search/game.h"

namespace mushroom::tictactoe {

constexpr int kCells = 9;

struct State {
  uint16_t marks[2] = {0, 0};  // cells of the first and the second player, bit r * 3 + c
  uint8_t to_move = 0;
  bool operator==(const State& o) const {
    return marks[0] == o.marks[0] && marks[1] == o.marks[1] && to_move == o.to_move;
  }
};

// True when the cells hold a full row, column or diagonal.
bool has_line(uint16_t cells);
// The cell a symmetry (0..7: 4 rotations, then the same after a mirror) maps
// a cell to, and a set of cells under it.
int transform_cell(int symmetry, int cell);
uint16_t transform_cells(int symmetry, uint16_t cells);

struct TicTacToe {
  using State = tictactoe::State;
  using Action = uint8_t;
  static constexpr int kMaxActions = kCells;
  static constexpr int kNumSymmetries = 8;

  static bool is_terminal(const State& s) {
    return has_line(s.marks[0]) || has_line(s.marks[1]) || (s.marks[0] | s.marks[1]) == 0x1FF;
  }
  static int legal_actions(const State& s, Action* out) {
    if (is_terminal(s)) return 0;
    int n = 0;
    for (int cell = 0; cell < kCells; ++cell)
      if (!((s.marks[0] | s.marks[1]) >> cell & 1)) out[n++] = Action(cell);
    return n;
  }
  static void apply(State& s, const Action& a) {
    s.marks[s.to_move] = uint16_t(s.marks[s.to_move] | 1u << a);
    s.to_move ^= 1;
  }
  static int to_move(const State& s) { return s.to_move; }
  // The player who just moved completed a line (a loss for the side to
  // move), or the board is full (a draw).
  static double terminal_value(const State& s) { return has_line(s.marks[s.to_move ^ 1]) ? -1 : 0; }
  static double terminal_margin(const State& s) { return terminal_value(s); }
  static uint64_t hash(const State& s) {
    uint64_t h = (uint64_t(s.marks[0]) << 20) ^ (uint64_t(s.marks[1]) << 4) ^ s.to_move;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 31);
  }
  static int action_index(const Action& a) { return a; }
  static State transform(int symmetry, const State& s) {
    State t = s;
    t.marks[0] = transform_cells(symmetry, s.marks[0]);
    t.marks[1] = transform_cells(symmetry, s.marks[1]);
    return t;
  }
  static Action transform(int symmetry, const Action& a) { return Action(transform_cell(symmetry, a)); }

  // The learning pipeline's part (search/game.h).
  static constexpr int kBoardRows = 3, kBoardCols = 3;
  static constexpr int kSlotsPerCell = 1;
  static constexpr int kFeatureVersion = 1;
  static int feature_planes(int version) { return version == 1 ? 4 : 0; }
  static void encode(const State& s, float* planes, int version);
  static int action_of_index(int slot) { return slot >= 0 && slot < kCells ? slot : -1; }
  static int ply(const State& s);
  static std::vector<StateField> state_fields() { return {{"marks", 2, 0, 511}}; }
  static void write_state(const State& s, int32_t* values) {
    values[0] = s.marks[0];
    values[1] = s.marks[1];
  }
  static State read_state(const int32_t* values, int to_move, int) {
    return State{{uint16_t(values[0]), uint16_t(values[1])}, uint8_t(to_move)};
  }
};
MUSHROOM_CHECK_SEARCH_GAME(TicTacToe);
#if defined(__cpp_concepts)
static_assert(LearnableGame<TicTacToe>);
#endif

// The exact value for the side to move under best play: +1, 0 or -1
// (plain negamax; the whole game has 5,478 positions).
int solve(const State& s);

}  // namespace mushroom::tictactoe
