#include "mushroom/perft.h"

#include <gtest/gtest.h>

#include "mushroom/position_io.h"
#include "mushroom/reference_movegen.h"
#include "util/text.h"

namespace mushroom {
namespace {

// Perft over the naive generator, written independently of perft.cpp.
uint64_t naive_perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  uint64_t total = 0;
  std::vector<Move> moves = generate_moves_naive(pos);
  moves.push_back(Move::pass());
  for (const Move& m : moves) {
    Position next = pos;
    next.apply(m);
    if (next.game_over()) total += depth == 1;
    else total += naive_perft(next, depth - 1);
  }
  return total;
}

struct GoldenCase {
  std::string file;
  int depth;
  uint64_t count;
};

// testdata/perft/golden.txt: "<position file> <depth> <count>" per line.
std::vector<GoldenCase> load_golden() {
  std::vector<GoldenCase> cases;
  for (const std::string& line : split_lines(read_file("testdata/perft/golden.txt"))) {
    auto words = split_words(line);
    if (words.empty() || words[0][0] == '#') continue;
    cases.push_back({"testdata/perft/" + std::string(words[0]), std::stoi(std::string(words[1])),
                     std::stoull(std::string(words[2]))});
  }
  return cases;
}

TEST(Perft, GoldenValues) {
  const auto cases = load_golden();
  ASSERT_GE(cases.size(), 12u);
  for (const GoldenCase& c : cases) {
    Position p = load_position_file(c.file);
    EXPECT_EQ(perft(p, c.depth), c.count) << c.file << " depth " << c.depth;
  }
}

TEST(Perft, GoldenValuesAgreeWithNaivePerftUpToDepth2) {
  for (const GoldenCase& c : load_golden()) {
    if (c.depth > 2) continue;
    EXPECT_EQ(naive_perft(load_position_file(c.file), c.depth), c.count) << c.file << " depth " << c.depth;
  }
}

TEST(Perft, PassRules) {
  Position empty;  // nothing to take: only passes
  EXPECT_EQ(perft(empty, 1), 1u);
  EXPECT_EQ(perft(empty, 2), 1u);  // pass, pass: game ends on ply 2, counts
  EXPECT_EQ(perft(empty, 3), 0u);  // the game ended before ply 3
  Position one;
  one.set_digit(0, 0, 5);
  one.set_digit(0, 1, 5);
  // Ply 1: take or pass. Depth 2: take,pass | pass,take | pass,pass(end).
  EXPECT_EQ(perft(one, 1), 2u);
  EXPECT_EQ(perft(one, 2), 3u);
  // Depth 3: take,pass,pass(end) | pass,take,pass | (pass,pass ended: 0).
  EXPECT_EQ(perft(one, 3), 2u);
}

}  // namespace
}  // namespace mushroom
