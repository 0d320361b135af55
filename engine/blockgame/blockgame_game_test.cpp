#include "blockgame/blockgame_game.h"

#include <gtest/gtest.h>

#include <set>

#include "search/mcts.h"
#include "util/rng.h"

namespace mushroom::blockgame {
namespace {

TEST(BlockgameGame, SlotsAreOneToOneWithPlacements) {
  std::set<int> slots;
  for (int p = 0; p < kPlacements; ++p) {
    const int slot = slot_of_placement(p);
    ASSERT_GE(slot, 0);
    ASSERT_LT(slot, kPolicySlots);
    EXPECT_EQ(placement_of_slot(slot), p);
    slots.insert(slot);
    // The anchor is the piece's top-left cell (of the 2x2 square for an L).
    const uint32_t mask = placements()[size_t(p)];
    const int anchor = slot % kBits, orientation = slot / kBits;
    const int r = anchor / kSize, c = anchor % kSize;
    uint32_t box = 1u << anchor;
    if (orientation != 5) box |= 1u << (anchor + 1);
    if (orientation != 4) box |= 1u << (anchor + kSize);
    if (orientation < 4) box |= 1u << (anchor + kSize + 1);
    EXPECT_EQ(mask & ~box, 0u) << "placement " << p << " leaves its anchor box at " << r << "," << c;
  }
  EXPECT_EQ(slots.size(), size_t(kPlacements));
  int empty_slots = 0;
  for (int s = 0; s < kPolicySlots; ++s) empty_slots += placement_of_slot(s) < 0;
  EXPECT_EQ(empty_slots, kPolicySlots - kPlacements);
  EXPECT_EQ(placement_of_slot(-1), -1);
  EXPECT_EQ(placement_of_slot(kPolicySlots), -1);
}

TEST(BlockgameGame, SymmetriesMapPlacementsLikeTheirCells) {
  for (int s = 0; s < BlockGame::kNumSymmetries; ++s)
    for (int p = 0; p < kPlacements; ++p)
      EXPECT_EQ(placements()[size_t(transform_placement(p, s))], transform(placements()[size_t(p)], s));
  // Legal moves commute with symmetries.
  Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    State st;
    uint8_t legal[kPlacements];
    for (int k = int(rng.uniform(6)); k > 0; --k) {
      const int n = legal_placements(st.filled, legal);
      if (n == 0) break;
      BlockGame::apply(st, legal[rng.uniform(uint32_t(n))]);
    }
    const int s = int(rng.uniform(8));
    const State image = BlockGame::transform(s, st);
    std::set<int> mapped, direct;
    const int n = legal_placements(st.filled, legal);
    for (int i = 0; i < n; ++i) mapped.insert(transform_placement(legal[i], s));
    const int m = legal_placements(image.filled, legal);
    for (int i = 0; i < m; ++i) direct.insert(legal[i]);
    EXPECT_EQ(mapped, direct);
  }
}

TEST(BlockgameGame, PlayIsAlternatingAndTheLastPlacerWins) {
  State s;
  EXPECT_FALSE(BlockGame::is_terminal(s));
  BlockGame::apply(s, 64);  // a horizontal domino at the top-left
  EXPECT_EQ(s.filled, 0b11u);
  EXPECT_EQ(BlockGame::to_move(s), 1);
  EXPECT_EQ(s.ply, 1);
  State full{kFull, 0, 0};
  EXPECT_TRUE(BlockGame::is_terminal(full));
  EXPECT_EQ(BlockGame::terminal_value(full), -1);
  uint8_t out[kPlacements];
  EXPECT_EQ(BlockGame::legal_actions(full, out), 0);
  EXPECT_EQ(BlockGame::legal_actions(State{}, out), kPlacements);
}

// Ground truth for the search: on late positions, plain MCTS with no net
// proves the result and plays a winning move whenever the solver says one exists.
TEST(BlockgameGame, MctsFindsTheSolversWinsInEndgames) {
  Solver solver;
  UniformEvaluator<BlockGame> uniform;
  Rng rng(11);
  int won_positions = 0;
  for (int trial = 0; trial < 60; ++trial) {
    State s;
    uint8_t legal[kPlacements];
    for (int k = 6 + int(rng.uniform(3)); k > 0; --k) {
      const int n = legal_placements(s.filled, legal);
      if (n == 0) break;
      BlockGame::apply(s, legal[rng.uniform(uint32_t(n))]);
    }
    if (BlockGame::is_terminal(s) || !solver.wins(s.filled)) continue;
    ++won_positions;
    MctsConfig config;
    config.score_weight = 0;
    Mcts<BlockGame> mcts(config);
    mcts.reset(s);
    mcts.run(uniform, 3000);
    const uint8_t move = mcts.best_action();
    EXPECT_FALSE(solver.wins(s.filled | placements()[move])) << format_board(s.filled);
  }
  EXPECT_GT(won_positions, 10);
}

// Planes 3..8 mark exactly the legal placements' policy slots, and plane 9
// the empty cells no legal placement covers, on random reachable positions.
TEST(BlockgameFeatures, LegalPlacementPlanesMatchTheGame) {
  constexpr int kCellsHere = kBits;
  Rng rng(11);
  uint8_t legal[kPlacements];
  int positions = 0;
  for (int game = 0; game < 60; ++game) {
    uint32_t filled = 0;
    for (int n; (n = legal_placements(filled, legal)) >= 0;) {
      std::vector<float> planes(size_t(BlockGame::feature_planes(2) * kCellsHere));
      BlockGame::encode(State{filled, 0, 0}, planes.data(), 2);
      std::vector<float> expected(size_t(kPolicySlots), 0.0f);
      uint32_t covered = 0;
      for (int i = 0; i < n; ++i) {
        expected[size_t(slot_of_placement(legal[i]))] = 1.0f;
        covered |= placements()[legal[i]];
      }
      for (int slot = 0; slot < kPolicySlots; ++slot)
        ASSERT_EQ(planes[size_t(3 * kCellsHere + slot)], expected[size_t(slot)]) << "slot " << slot;
      for (int cell = 0; cell < kCellsHere; ++cell) {
        const bool dead = !(filled >> cell & 1) && !(covered >> cell & 1);
        ASSERT_EQ(planes[size_t(9 * kCellsHere + cell)], dead ? 1.0f : 0.0f) << "cell " << cell;
        ASSERT_EQ(planes[size_t(cell)], (filled >> cell & 1) ? 1.0f : 0.0f);
      }
      ++positions;
      if (n == 0) break;
      filled |= placements()[legal[rng.uniform(uint32_t(n))]];
    }
  }
  EXPECT_GT(positions, 500);
}

// Layout 1 (the nets before legal-placement planes) is layout 2's first three planes.
TEST(BlockgameFeatures, LayoutOneIsTheFirstThreePlanes) {
  EXPECT_EQ(BlockGame::feature_planes(1), 3);
  EXPECT_EQ(BlockGame::feature_planes(2), 10);
  EXPECT_EQ(BlockGame::feature_planes(3), 0);
  for (uint32_t filled : {0u, 0x1234567u & 0x1ffffffu, 0x0f0f0f0u}) {
    std::vector<float> v1(3 * 25, -1.0f), v2(10 * 25);
    BlockGame::encode(State{filled, 0, 0}, v1.data(), 1);
    BlockGame::encode(State{filled, 0, 0}, v2.data(), 2);
    EXPECT_EQ(v1, std::vector<float>(v2.begin(), v2.begin() + 3 * 25));
  }
}

}  // namespace
}  // namespace mushroom::blockgame
