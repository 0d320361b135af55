#include "seeds/pseudo_tonga.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "seeds/tonga_match.h"
#include "seeds/tonga_server.h"

namespace mushroom::tonga {
namespace {

TEST(PseudoTonga, SeedDiagramIsleCounts) {
  const Geometry g(6);
  const Board b = parse_board(g, {"......", "..WB..", ".BWWB.", "...WB.", "BWW...", "..B..."});
  std::vector<int> white = isle_sizes(g, b.stones[kWhite]), black = isle_sizes(g, b.stones[kBlack]);
  std::sort(white.begin(), white.end());
  std::sort(black.begin(), black.end());
  EXPECT_EQ(white, (std::vector<int>{2, 4}));
  EXPECT_EQ(black, (std::vector<int>{1, 1, 1, 1, 2}));
}

TEST(PseudoTonga, SeedFinalScoreExample) {
  const Geometry g(4);
  // The seed's 4x4 example as printed: White 3^2+3^2+2^2 = 22, Black 3^2+2^2+2^2+1^2 = 18.
  const Board seed = parse_board(g, {"WWBB", "WBWW", "BWBB", "BWWB"});
  EXPECT_EQ(tonga_score(g, seed.stones[kWhite]), 22);
  EXPECT_EQ(tonga_score(g, seed.stones[kBlack]), 18);
  EXPECT_TRUE(seed.full(g));
}

TEST(PseudoTonga, GeometryRejectsOddOrLargeBoards) {
  EXPECT_THROW(Geometry(7), std::invalid_argument);
  EXPECT_THROW(Geometry(18), std::invalid_argument);
}

// A random game's boards, one per ply.
std::vector<Board> random_game(const Geometry& g, uint64_t seed, int plies) {
  Rng rng(seed);
  Board b;
  std::vector<Board> out{b};
  for (int i = 0; i < plies && !b.full(g); ++i) {
    std::vector<int> empty;
    b.empty(g).for_each([&](int c) { empty.push_back(c); });
    b.place(empty[rng.uniform(uint32_t(empty.size()))]);
    out.push_back(b);
  }
  return out;
}

TEST(IsleTracker, IncrementalEvaluationMatchesFromScratchThroughPlaceAndUndo) {
  const Geometry g(8);
  const auto boards = random_game(g, 3, 64);
  IsleTracker t(g, boards[0]);
  Board b;
  for (size_t i = 1; i < boards.size(); ++i) {
    int cell = -1;
    (boards[i].stones[0] | boards[i].stones[1]).for_each([&](int c) {
      if (!(b.stones[0] | b.stones[1]).test(c)) cell = c;
    });
    // The predicted gain equals the real change.
    const Color c = b.to_move;
    const int64_t before = t.weighted(c) - t.weighted(other(c));
    const int64_t predicted = t.gain_if_placed(cell, c);
    t.place(cell, c);
    b.place(cell);
    EXPECT_EQ(t.weighted(c) - t.weighted(other(c)) - before, predicted);
    for (Color k : {kBlack, kWhite}) ASSERT_EQ(t.weighted(k), IsleTracker::weighted_from_scratch(g, b, k)) << i;
  }
  for (size_t i = boards.size() - 1; i > 0; --i) {
    t.undo();
    for (Color k : {kBlack, kWhite}) ASSERT_EQ(t.weighted(k), IsleTracker::weighted_from_scratch(g, boards[i - 1], k));
  }
}

TEST(TongaServer, EmptyBoardGoesToTheCentre) {
  const Geometry g(8);
  std::set<int> seen;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    TongaServer server(g, kBlack, seed);
    seen.insert(server.choose(Board{}));
  }
  EXPECT_EQ(seen, (std::set<int>{Geometry::cell(3, 3), Geometry::cell(3, 4), Geometry::cell(4, 3), Geometry::cell(4, 4)}));
}

// The fast search finds exactly the squares (and score) of the plain
// minimax, on positions from random games, near-full boards included.
TEST(TongaServer, MatchesPlainMinimaxOnRandomPositions) {
  for (int n : {4, 6}) {
    const Geometry g(n);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      for (const Board& b : random_game(g, seed, n * n)) {
        if (b.placed == 0 || b.full(g)) continue;
        const Color server = b.to_move;
        if ((b.placed + int(seed)) % 3 != 0 && n == 6) continue;  // a sample keeps the test quick
        int64_t fast_score = 0, slow_score = 0;
        const auto fast = TongaServer(g, server, 1).best_squares(b, &fast_score);
        const auto slow = reference_best_squares(g, b, server, &slow_score);
        ASSERT_EQ(fast, slow) << "n=" << n << " seed=" << seed << " placed=" << b.placed;
        ASSERT_EQ(fast_score, slow_score);
      }
    }
  }
}

TEST(TongaServer, HandBuiltPositionsFollowTheDefinition) {
  const Geometry g(4);
  // Two squares left, server (White) to move: after its move and our reply
  // the board is full, every perimeter is 0, so every leaf scores 0 and
  // both squares tie.
  const Board b = parse_board(g, {"WB.B", "B.WB", "BWWB", "WBWB"});
  int64_t score = -1;
  const auto squares = TongaServer(g, kWhite, 1).best_squares(b, &score);
  EXPECT_EQ(squares, (std::vector<int>{Geometry::cell(0, 2), Geometry::cell(1, 1)}));
  EXPECT_EQ(score, 0);
  // Three left, White to move: (0,2) joins nothing, (1,1) makes a 5-isle,
  // and with one square still empty after our reply the evaluation differs.
  const Board three = parse_board(g, {"WB..", "B.WB", "BWWB", "WBWB"});
  EXPECT_EQ(TongaServer(g, kWhite, 1).best_squares(three), reference_best_squares(g, three, kWhite));
  // One square left: the server evaluates the full board after it.
  const Board last = parse_board(g, {"WBWB", "BWWB", "BWWB", "WBW."});
  EXPECT_EQ(TongaServer(g, kBlack, 1).best_squares(last), (std::vector<int>{Geometry::cell(3, 3)}));
}

}  // namespace
}  // namespace mushroom::tonga

namespace mushroom::tonga {
namespace {

TEST(TongaMatch, FullGameFillsTheBoardAndScoresBothSides) {
  for (bool we_start : {true, false}) {
    const TongaGameResult r = play_tonga_game(6, we_start, 5, TongaAgentConfig{}, 20000);
    EXPECT_EQ(r.penalty, "");
    // 18 stones each: scores are sums of squares of isle sizes adding to 18.
    EXPECT_GE(r.ours, 18);
    EXPECT_GE(r.server, 18);
    EXPECT_LE(r.ours, 18 * 18);
  }
}

TEST(TongaMatch, TimeoutGivesTheServerEveryEmptySquare) {
  const TongaGameResult r = play_tonga_game(6, true, 5, TongaAgentConfig{.kind = "mcts"}, 0.0);
  EXPECT_EQ(r.penalty, "timeout");
  EXPECT_EQ(r.ours, 0);        // our first stone never counted: the board was filled for the server
  EXPECT_EQ(r.server, 36 * 36);
}

TEST(TongaMatch, SignedSquareRoot) {
  EXPECT_DOUBLE_EQ(signed_sqrt(9), 3);
  EXPECT_DOUBLE_EQ(signed_sqrt(-4), -2);
  EXPECT_DOUBLE_EQ(signed_sqrt(0), 0);
}

}  // namespace
}  // namespace mushroom::tonga
