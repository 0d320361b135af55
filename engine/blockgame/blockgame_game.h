// BLOCKGAME behind the search interface (search/game.h), for the learning
// pipeline's check on a solved game (configs/blockgame.toml).
//
// An action is a placement index (0..103, blockgame::placements()). Its
// policy slot, what the net scores, is orientation * 25 + anchor cell:
//   orientations 0..3  the L-tromino whose 2x2 square misses its top-left,
//                      top-right, bottom-left, bottom-right cell
//   orientation 4      horizontal domino;  orientation 5  vertical domino
//   anchor             the piece's top-left cell (of its 2x2 square for an L)
// so the net's policy head is one 1x1 convolution with 6 output channels.
// 46 of the 150 slots name no placement (anchors too close to an edge).
//
// The net's input planes (5x5), layout version 2:
//   0  the cell is filled;  1  the cell is empty;  2  constant 1
//   3..8  the placement of orientation 0..5 anchored at this cell is legal
//   9  the cell is empty but no legal placement covers it (it stays empty)
// Version 1 had planes 0-2 only: a net had to learn from the filled cells
// alone which placements still fit, the one thing every answer depends on.
// The game is impartial: who is to move does not change a position's value.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "blockgame/blockgame.h"
#include "search/evaluator.h"
#include "search/game.h"

namespace mushroom::blockgame {

constexpr int kPlacements = 104;
constexpr int kOrientations = 6;
constexpr int kPolicySlots = kOrientations * kBits;  // 150

// Policy slot of a placement, and back (-1 for a slot with no placement).
int slot_of_placement(int placement);
int placement_of_slot(int slot);
// The placement a symmetry maps a placement to.
int transform_placement(int placement, int symmetry);

struct State {
  uint32_t filled = 0;
  uint8_t to_move = 0;  // 0: the player who moved first from the sampled start
  uint8_t ply = 0;
  bool operator==(const State& o) const { return filled == o.filled && to_move == o.to_move; }
};

// Legal placements of a position, ascending; returns how many.
int legal_placements(uint32_t filled, uint8_t* out);

struct BlockGame {
  using State = blockgame::State;
  using Action = uint8_t;
  static constexpr int kMaxActions = kPlacements;
  static constexpr int kNumSymmetries = 8;

  static int legal_actions(const State& s, Action* out) { return legal_placements(s.filled, out); }
  static void apply(State& s, const Action& a) {
    s.filled |= placements()[a];
    s.to_move ^= 1;
    ++s.ply;
  }
  static bool is_terminal(const State& s);
  static int to_move(const State& s) { return s.to_move; }
  // The side to move has nothing to place: the opponent placed the last piece.
  static double terminal_value(const State&) { return -1; }
  static double terminal_margin(const State&) { return -1; }
  static uint64_t hash(const State& s);  // of the filled cells only: the game is impartial
  static int action_index(const Action& a) { return slot_of_placement(a); }
  static State transform(int symmetry, const State& s) {
    return State{blockgame::transform(s.filled, symmetry), s.to_move, s.ply};
  }
  static Action transform(int symmetry, const Action& a) { return Action(transform_placement(a, symmetry)); }

  // The learning pipeline's part (search/game.h).
  static constexpr int kBoardRows = kSize, kBoardCols = kSize;
  static constexpr int kSlotsPerCell = kOrientations;
  static constexpr int kFeatureVersion = 2;
  static int feature_planes(int version) { return version == 1 ? 3 : version == 2 ? 10 : 0; }
  static void encode(const State& s, float* planes, int version);
  static int action_of_index(int slot) { return placement_of_slot(slot); }
  static int ply(const State& s) { return s.ply; }
  static std::vector<StateField> state_fields() { return {{"filled", 1, 0, int32_t(kFull)}}; }
  static void write_state(const State& s, int32_t* values) { values[0] = int32_t(s.filled); }
  static State read_state(const int32_t* values, int to_move, int ply) {
    return State{uint32_t(values[0]), uint8_t(to_move), uint8_t(ply)};
  }
};
MUSHROOM_CHECK_SEARCH_GAME(BlockGame);
#if defined(__cpp_concepts)
static_assert(LearnableGame<BlockGame>);
#endif

}  // namespace mushroom::blockgame
