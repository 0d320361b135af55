#include "nnue/features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <vector>

#include "mushroom/movegen.h"
#include "mushroom/playout_positions.h"
#include "util/rng.h"

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

// The window features follow the triples: every 2x2 block once, row by
// row of top-left corners, its four states top left to bottom right, in the
// table of its place (2x2-edge: the board's edge in table 0, the rest in
// table 1). A pair that makes 10 one above the other shows up in a block.
TEST(NnueFeatures, WindowsNameEveryBlockOnceInItsTable) {
  std::array<std::array<uint8_t, kCols>, kRows> digits{};
  for (auto& row : digits) row.fill(5);
  digits[0][0] = 1;
  digits[1][0] = 9;
  digits[4][7] = 3;
  Position pos = Position::from_digits(digits);
  pos.apply(Move::rect(0, 0, 1, 0));  // the first player takes the 1 and the 9 of column 0
  const auto block = [](int a, int b, int c, int d) {
    return ((a * nnue::kCellStates + b) * nnue::kCellStates + c) * nnue::kCellStates + d;
  };
  for (const nnue::Windows windows : {nnue::Windows::k2x2, nnue::Windows::k2x2Edge}) {
    nnue::Shape shape;
    shape.windows = windows;
    ASSERT_EQ(nnue::active_feature_count(shape), nnue::kActiveFeatures + 144);
    ASSERT_EQ(nnue::feature_count(shape), nnue::kFeatures + (windows == nnue::Windows::k2x2 ? 1 : 2) * 20736);
    int first[nnue::kMaxActiveFeatures], second[nnue::kMaxActiveFeatures], plain[nnue::kMaxActiveFeatures];
    nnue::active_features(pos, kFirst, first, windows);
    nnue::active_features(pos, kSecond, second, windows);
    nnue::active_features(pos, kFirst, plain);
    // The features without windows come first, unchanged.
    EXPECT_TRUE(std::equal(plain, plain + nnue::kActiveFeatures, first));
    const int* blocks = first + nnue::kActiveFeatures;
    int inside = 0;
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 16; ++c) {
        const int f = blocks[r * 16 + c];
        const int table = (f - nnue::kWindowBase) / nnue::kWindowFeatures;
        const auto state = [&](int rr, int cc) { return nnue::cell_state(pos, rr, cc, kFirst); };
        EXPECT_EQ(f - nnue::kWindowBase - table * nnue::kWindowFeatures,
                  block(state(r, c), state(r, c + 1), state(r + 1, c), state(r + 1, c + 1)))
            << r << "," << c;
        const bool on_edge = r == 0 || c == 0 || r == 8 || c == 15;
        EXPECT_EQ(table, windows == nnue::Windows::k2x2Edge && !on_edge ? 1 : 0) << r << "," << c;
        inside += table;
      }
    EXPECT_EQ(inside, windows == nnue::Windows::k2x2Edge ? 7 * 14 : 0);
    // The reader's bound counts each table's blocks (blocks_in_table): the
    // same counts as the tables the blocks are put in, 46 on the edge and
    // 98 inside with 2x2-edge, all 144 in one table with 2x2.
    for (int t = 0; t < 2; ++t) {
      int in_table = 0;
      for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 16; ++c) in_table += nnue::window_table(windows, r, c) == t;
      const int expected = windows == nnue::Windows::k2x2Edge ? (t == 0 ? 46 : 98) : (t == 0 ? 144 : 0);
      EXPECT_EQ(nnue::blocks_in_table(windows, t), expected) << t;
      if (t < nnue::window_tables(windows)) {
        EXPECT_EQ(in_table, expected) << t;
      }
    }
    EXPECT_EQ(nnue::blocks_in_table(nnue::Windows::kNone, 0), 0);
    // Column 0's taken pair: the first block is (mine, 5, mine, 5), (theirs,
    // 5, theirs, 5) for the second player; the 3 at (4, 7) is in four blocks.
    EXPECT_EQ(blocks[0], nnue::kWindowBase + block(10, 4, 10, 4));
    EXPECT_EQ(second[nnue::kActiveFeatures], nnue::kWindowBase + block(11, 4, 11, 4));
    EXPECT_EQ((blocks[3 * 16 + 6] - nnue::kWindowBase) % nnue::kWindowFeatures, block(4, 4, 4, 2));
    EXPECT_EQ((blocks[4 * 16 + 7] - nnue::kWindowBase) % nnue::kWindowFeatures, block(2, 4, 4, 4));
  }
}

// move_changes lists exactly the features whose count differs between the
// positions before and after a move, in both views, each removed feature
// that both views share listed once; with each kind of windows, their
// blocks with it.
class NnueMoveChanges : public ::testing::TestWithParam<nnue::Windows> {};

TEST_P(NnueMoveChanges, AMovesChangesAreTheDifferenceOfItsPositionsFeatures) {
  const nnue::Windows windows = GetParam();
  nnue::Shape shape;
  shape.windows = windows;
  const int active = nnue::active_feature_count(shape);
  int moves = 0, block_changes = 0;
  // Up to 60 legal moves of each start (the board's edges and corners, big
  // rectangles and small), then the boards of pairs below.
  std::vector<std::pair<Position, Move>> cases;
  for (const Position& start : playout_positions(30, 11)) {
    MoveList list;
    const int n = generate_moves(start, list);
    for (int k = 0; k < n && k < 60; ++k) cases.emplace_back(start, list[k]);
  }
  // Boards of empty cells (digit 0) but a few pairs that make 10: at the
  // corners and on the borders of 2x2-edge's tables, and one pair at
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
    nnue::move_changes(before, after, move, start.to_move(), changes, windows);
    nnue::first_view_states(after_pos, expected);
    ASSERT_TRUE(std::equal(after, after + nnue::kStatesSize, expected));
    for (int p = 0; p < 2; ++p) {
      int was[nnue::kMaxActiveFeatures], now[nnue::kMaxActiveFeatures];
      nnue::active_features(start, Player(p), was, windows);
      nnue::active_features(after_pos, Player(p), now, windows);
      std::map<int, int> difference;  // feature -> count after minus before
      for (int i = 0; i < active; ++i) ++difference[now[i]];
      for (int i = 0; i < active; ++i) --difference[was[i]];
      std::map<int, int> listed;
      for (int i = 0; i < changes.n_added; ++i) ++listed[changes.added[p][i]];
      for (int i = 0; i < changes.n_removed; ++i) --listed[changes.removed[p][i]];
      for (int i = 0; i < changes.n_removed_both; ++i) --listed[changes.removed_both[i]];
      std::erase_if(difference, [](const auto& kv) { return kv.second == 0; });
      std::erase_if(listed, [](const auto& kv) { return kv.second == 0; });
      EXPECT_EQ(listed, difference) << "view " << p;
      EXPECT_EQ(changes.n_added, changes.n_removed + changes.n_removed_both);
      for (int i = 0; i < changes.n_added; ++i) block_changes += changes.added[p][i] >= nnue::kWindowBase;
    }
    ++moves;
  }
  EXPECT_GT(moves, 20);
  if (windows == nnue::Windows::kNone)
    EXPECT_EQ(block_changes, 0);
  else
    EXPECT_GE(block_changes, 4 * moves);  // two cells or more change two blocks or more, in each view
}

INSTANTIATE_TEST_SUITE_P(Windows, NnueMoveChanges,
                         ::testing::Values(nnue::Windows::kNone, nnue::Windows::k2x2, nnue::Windows::k2x2Edge),
                         [](const auto& info) {
                           return info.param == nnue::Windows::kNone ? std::string("None")
                                  : info.param == nnue::Windows::k2x2 ? std::string("TwoByTwo")
                                                                      : std::string("TwoByTwoEdge");
                         });

}  // namespace
}  // namespace mushroom
