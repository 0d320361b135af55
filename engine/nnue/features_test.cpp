#include "nnue/features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <vector>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"

namespace mushroom {
namespace {

// The features of a known position: each cell once, in cell order, then
// the row triples left to right, then the column triples top to bottom, so
// a pair that makes 10 shows up in the triples that hold it.
TEST(NnueFeatures, FeaturesNameEveryCellAndEveryTripleOnce) {
  std::array<std::array<uint8_t, kCols>, kRows> digits{};
  for (auto& row : digits) row.fill(5);
  digits[0][0] = 1;
  digits[0][1] = 9;
  Position pos = Position::from_digits(digits);
  pos.apply(Move::rect(0, 0, 0, 1));  // the first player takes the 1 and the 9
  int first[nnue::kActiveFeatures], second[nnue::kActiveFeatures];
  nnue::active_features(pos, kFirst, first);
  nnue::active_features(pos, kSecond, second);
  for (int cell = 0; cell < kCells; ++cell) {
    EXPECT_EQ(first[cell] / nnue::kCellStates, cell);
    EXPECT_EQ(first[cell], nnue::cell_feature(pos, cell / kCols, cell % kCols, kFirst));
  }
  EXPECT_EQ(first[0] % nnue::kCellStates, 10);   // the first player owns (0, 0)
  EXPECT_EQ(second[0] % nnue::kCellStates, 11);  // which is its opponent's, seen by the second
  EXPECT_EQ(first[2] % nnue::kCellStates, 4);    // (0, 2) holds a 5
  // Row 0's first triple is (mine, mine, 5); its column 0 triple is (mine, 5, 5).
  EXPECT_EQ(first[kCells], nnue::row_triple(10, 10, 4));
  EXPECT_EQ(second[kCells], nnue::row_triple(11, 11, 4));
  EXPECT_EQ(first[kCells + kRows * (kCols - 2)], nnue::column_triple(10, 4, 4));
  for (int i = kCells; i < nnue::kActiveFeatures; ++i) {
    EXPECT_GE(first[i], nnue::kRowTripleBase);
    EXPECT_LT(first[i], i < kCells + kRows * (kCols - 2) ? nnue::kColumnTripleBase : nnue::kFeatures);
  }
}

// move_changes lists exactly the features whose count differs between the
// positions before and after a move, in both views, each removed feature
// that both views share listed once.
TEST(NnueFeatures, AMovesChangesAreTheDifferenceOfItsPositionsFeatures) {
  int moves = 0;
  // Up to 60 legal moves of each start (the board's edges and corners, big
  // rectangles and small), then the boards of pairs below.
  std::vector<std::pair<Position, Move>> cases;
  for (const Position& start : playout_positions(30, 11)) {
    MoveList list;
    const int n = generate_moves(start, list);
    for (int k = 0; k < n && k < 60; ++k) cases.emplace_back(start, list[k]);
  }
  // Boards of empty cells (digit 0) but a few pairs that make 10: at the
  // corners and a row or two in from the edges, and one pair at
  // opposite corners, whose only move is the whole board.
  const auto pairs_board = [](std::initializer_list<std::array<int, 4>> pairs) {
    std::array<std::array<uint8_t, kCols>, kRows> digits{};
    for (const auto& [r1, c1, r2, c2] : pairs) digits[size_t(r1)][size_t(c1)] = 1, digits[size_t(r2)][size_t(c2)] = 9;
    return Position::from_digits(digits);
  };
  for (const Position& board : {pairs_board({{0, 0, 0, 1}, {9, 15, 9, 16}, {1, 14, 2, 14}, {7, 1, 8, 1}}),
                                pairs_board({{0, 0, 9, 16}})}) {
    MoveList list;
    const int n = generate_moves(board, list);
    for (int k = 0; k < n; ++k) cases.emplace_back(board, list[k]);
  }
  ASSERT_TRUE(std::any_of(cases.begin(), cases.end(), [](const auto& c) {
    return c.second.r1 == 0 && c.second.c1 == 0 && c.second.r2 == kRows - 1 && c.second.c2 == kCols - 1;
  }));
  for (const auto& [start, move] : cases) {
    Position after_pos = start;
    after_pos.apply(move);
    uint8_t before[nnue::kStatesSize], after[nnue::kStatesSize], expected[nnue::kStatesSize];
    nnue::first_view_states(start, before);
    std::copy(before, before + nnue::kStatesSize, after);
    nnue::FeatureChanges changes;
    nnue::move_changes(before, after, move, start.to_move(), changes);
    nnue::first_view_states(after_pos, expected);
    ASSERT_TRUE(std::equal(after, after + nnue::kStatesSize, expected));
    for (int p = 0; p < 2; ++p) {
      int was[nnue::kActiveFeatures], now[nnue::kActiveFeatures];
      nnue::active_features(start, Player(p), was);
      nnue::active_features(after_pos, Player(p), now);
      std::map<int, int> difference;  // feature -> count after minus before
      for (int f : now) ++difference[f];
      for (int f : was) --difference[f];
      std::map<int, int> listed;
      for (int i = 0; i < changes.n_added; ++i) ++listed[changes.added[p][i]];
      for (int i = 0; i < changes.n_removed; ++i) --listed[changes.removed[p][i]];
      for (int i = 0; i < changes.n_removed_both; ++i) --listed[changes.removed_both[i]];
      std::erase_if(difference, [](const auto& kv) { return kv.second == 0; });
      std::erase_if(listed, [](const auto& kv) { return kv.second == 0; });
      EXPECT_EQ(listed, difference) << "view " << p;
      EXPECT_EQ(changes.n_added, changes.n_removed + changes.n_removed_both);
    }
    ++moves;
  }
  EXPECT_GT(moves, 20);
}

}  // namespace
}  // namespace mushroom
