// Input planes for the policy/value net. Everything is seen from the side to
// move: "mine" is the player about to move. Planes are 10x17, row-major,
// channel-major (plane c starts at c * kCells).
//
// Feature layout version 1, channel by channel:
//   0..8  digit one-hot: plane d-1 is 1 where the cell holds mushroom d (1..9)
//   9     the cell holds no mushroom (taken, or a 0 in a test board)
//   10    owned by the side to move
//   11    owned by the opponent
//   12    owned by nobody
//   13    constant: 1 when the side to move is the second player
//   14    constant: 1 when the last move was a pass (a second pass ends the game)
//   15    constant: game phase, mushrooms left / 170
//   16    constant: 1 (marks the board against the convolutions' zero padding)
#pragma once
#include "mushroom/position.h"

namespace mushroom::nn {

constexpr int kFeatureVersion = 1;
constexpr int kInputPlanes = 17;
constexpr int kInputSize = kInputPlanes * kCells;

// Writes kInputSize floats.
void encode_features(const Position& pos, float* out);

}  // namespace mushroom::nn
