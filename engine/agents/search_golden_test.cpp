// The searched tree, pinned. Alpha-beta at fixed depths on positions of
// bench/movegen_positions.txt, with the hand evaluation and with the learned
// one (models/eval.bin, its SIMD and scalar paths), under the contest's
// search settings (alphabeta/playing_search.h), the plain ones
// (AlphaBetaConfig's defaults, which the evaluation's labels use), and
// the contest's with the learned evaluation's Multi-ProbCut fit,
// models/eval.probcut, as the contest bot plays (the "probcut" lines): the
// node count, the score and
// the best move of each search must stay exactly those in
// testdata/search/fixed-depth-trees.txt. A change made for speed (issue 58)
// must leave them all as they are. A change meant to alter the search
// rewrites the file with MUSHROOM_UPDATE_GOLDEN=1 and says so in its commit.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "mushroom/movegen.h"
#include "mushroom/position_io.h"
#include "nnue/evaluator.h"

namespace mushroom {
namespace {

constexpr const char* kGolden = "testdata/search/fixed-depth-trees.txt";
constexpr int kPositions = 12;
constexpr int kDepth = 6;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Positions from the bench set with room for a real tree: 15 rectangles or more.
std::vector<Position> golden_positions() {
  std::vector<Position> out;
  for (const Position& p : parse_position_list(read_text("bench/movegen_positions.txt"), "bench/movegen_positions.txt")) {
    MoveList list;
    if (generate_moves(p, list) >= 15) out.push_back(p);
    if (int(out.size()) == kPositions) break;
  }
  return out;
}

// One line per search: "<position> <evaluation> <settings> nodes=N score=S best=MOVE".
std::string search_lines() {
  const nnue::Network model = nnue::read_network("models/eval.bin");
  const ProbCutFit fit = read_probcut_fit("models/eval.probcut");
  check_probcut_evaluation(fit, probcut_evaluation_name("models/eval.bin"), "models/eval.probcut");
  const std::vector<Position> positions = golden_positions();
  std::ostringstream out;
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(24);
  for (size_t i = 0; i < positions.size(); ++i) {
    for (const std::string settings : {"contest", "plain", "probcut"}) {
      const AlphaBetaConfig config = settings == "plain" ? AlphaBetaConfig{} : playing_search_config();
      for (const char* eval : {"hand", "learned", "learned-scalar"}) {
        const std::string e = eval;
        if (settings == "probcut" && e == "hand") continue;  // the fit belongs to the learned evaluation
        nnue::Evaluator learned(model, e != "learned-scalar");
        AlphaBeta search(config, e == "hand" ? nullptr : &learned);
        if (settings == "probcut") search.set_probcut(&fit);
        const AlphaBetaResult r = search.search(positions[i], far, kDepth);
        // The SIMD and scalar paths must agree, so both are written under one name.
        out << i << ' ' << (e == "hand" ? "hand" : "learned") << ' ' << settings << " depth=" << r.depth
            << " nodes=" << r.nodes << " score=" << r.score << " best=" << to_string(r.best) << '\n';
      }
    }
  }
  return out.str();
}

TEST(SearchGolden, FixedDepthTreesAreExactlyTheRecordedOnes) {
  const std::string now = search_lines();
  if (const char* update = std::getenv("MUSHROOM_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(kGolden, std::ios::binary) << now;
    GTEST_SKIP() << "rewrote " << kGolden;
  }
  const std::string recorded = read_text(kGolden);
  std::istringstream want(recorded), got(now);
  std::string w, g;
  int line = 0, compared = 0;
  while (std::getline(want, w)) {
    ++line;
    ASSERT_TRUE(std::getline(got, g)) << kGolden << ":" << line << ": the search wrote fewer lines";
    EXPECT_EQ(g, w) << kGolden << ":" << line;
    ++compared;
  }
  EXPECT_FALSE(std::getline(got, g)) << "the search wrote more lines than " << kGolden << " holds";
  EXPECT_EQ(compared, kPositions * (2 * 3 + 2));
}

}  // namespace
}  // namespace mushroom
