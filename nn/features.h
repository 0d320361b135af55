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

// BLOCKGAME (blockgame/blockgame_game.h), 5x5 planes, version 2:
//   0  the cell is filled;  1  the cell is empty;  2  constant 1
//   3..8  the placement of orientation 0..5 anchored at this cell is legal
//         (orientations and anchors as blockgame/blockgame_game.h's policy slots)
//   9  the cell is empty but no legal placement covers it (it stays empty)
// Version 1 had planes 0-2 only: a net had to learn from the filled cells
// alone which placements still fit, the one thing every answer depends on.
// The game is impartial: who is to move does not change a position's value.
// The sizes repeat blockgame/blockgame_game.h's (the exported bot embeds this
// file without the games); nn/blockgame_evaluator.cpp checks they agree.
constexpr int kBlockgameSize = 5;
constexpr int kBlockgameOrientations = 6;
constexpr int kBlockgamePolicySize = kBlockgameOrientations * kBlockgameSize * kBlockgameSize;
constexpr int kBlockgamePlanes = 10;  // of the newest version
constexpr int kBlockgameFeatureVersion = 2;
// Planes of a blockgame layout version: 3 for version 1, 10 for version 2,
// 0 for a version this build does not know.
int blockgame_planes(int feature_version);
// Writes blockgame_planes(feature_version) * 25 floats.
void encode_blockgame_features(uint32_t filled, float* out, int feature_version = kBlockgameFeatureVersion);

}  // namespace mushroom::nn
