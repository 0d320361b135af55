// The Multi-ProbCut fit (alphabeta/probcut.h): any text; what
// parse_probcut_fit accepts is then searched with, as the bot does, by
// alpha-beta's cut and by the endgame solver's selective mode, on positions
// of several bands, each search held to a few thousand nodes (and the
// solver's shallow searches, which have no node limit, to a second).
#include <chrono>
#include <string>

#include "alphabeta/alphabeta.h"
#include "alphabeta/probcut.h"
#include "endgame/endgame_solver.h"
#include "fuzz/fuzz_support.h"
#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"

using namespace mushroom;

namespace {

const std::string kSource = "fuzz.probcut";
constexpr uint64_t kNodes = 3000;

void search_with(const ProbCutFit& fit) {
  AlphaBetaConfig config;
  config.tt_bits = 12;
  AlphaBeta search(config);
  search.set_probcut(&fit);
  AlphaBeta shallow(config);
  EndgameSolver solver(EndgameConfig{12});
  solver.set_selective({&fit, &shallow, 1.5, 0});
  Position pos = random_board(3);
  const auto deadline = AlphaBeta::Clock::now() + std::chrono::seconds(1);
  for (int ply = 0; ply <= 60 && !pos.game_over(); ++ply) {
    if (ply % 20 == 0) {  // 170 mushrooms, then fewer: other bands' pairs
      search.search(pos, deadline, 8, kNodes);
      if (pos.mushrooms_left() <= 100) solver.solve(pos, {kNodes, deadline});
    }
    pos.apply(greedy_move(pos));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::as_text(data, size));
  ProbCutFit fit;
  if (fuzz::read_or_refuse(kSource, [&] { fit = parse_probcut_fit(text, kSource); })) search_with(fit);
  return 0;
}
