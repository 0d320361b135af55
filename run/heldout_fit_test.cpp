#include "run/heldout_fit.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "train/nnue/eval_test_util.h"
#include "util/scratch_folder_test_util.h"

namespace mushroom::run {
namespace {

// Positions of a few alpha-beta games, labelled at depth 2.
const std::vector<train::EvalRecord>& records() {
  static const std::vector<train::EvalRecord> r =
      train::selfplay_window(test_scratch_dir() / "heldout_fit_test", 8).records;
  return r;
}

// A net that is the hand evaluation fits exactly as the hand evaluation;
// one that is the material margin alone (skips 1 and 0) fits as the
// material margin. Both measured by the integer runtime on the same
// positions, so a candidate read wrongly, or another figure in its place,
// shows.
TEST(HeldoutFit, TheHandNetFitsAsTheHandEvaluationAndTheMaterialNetAsTheMargin) {
  ASSERT_GT(records().size(), 200u);
  const nnue::Network hand = nnue::Network::hand_equivalent({16, 8, 8});
  const view::FitRecord h = heldout_fit(records(), hand, 6.0);
  EXPECT_EQ(h.positions, int(records().size()));
  EXPECT_DOUBLE_EQ(h.learned_log_loss, h.hand_log_loss);
  EXPECT_DOUBLE_EQ(h.learned_search_loss, h.hand_search_loss);
  EXPECT_DOUBLE_EQ(h.learned_search_cells, h.hand_search_cells);
  EXPECT_DOUBLE_EQ(h.learned_result_cells, h.hand_result_cells);
  EXPECT_GT(h.hand_search_loss, 0);
  EXPECT_NE(h.hand_log_loss, h.material_log_loss);  // the gain term matters on these positions

  nnue::Network material = hand;
  material.skip_gain = 0;
  const view::FitRecord m = heldout_fit(records(), material, 6.0);
  EXPECT_DOUBLE_EQ(m.learned_log_loss, m.material_log_loss);
  EXPECT_DOUBLE_EQ(m.hand_log_loss, h.hand_log_loss);
  EXPECT_NE(m.learned_search_loss, h.learned_search_loss);
  // The target's scale is the one given: a wider one flattens the error.
  EXPECT_LT(heldout_fit(records(), material, 60.0).learned_search_loss, m.learned_search_loss);
}

// The line and the JSON carry the same figures.
TEST(HeldoutFit, TheLineAndTheJsonCarryTheFigures) {
  view::FitRecord f{0.41, 0.46, 0.52, 1234};
  f.learned_search_loss = 0.00436;
  f.hand_search_loss = 0.00747;
  f.learned_search_cells = 1.34;
  f.hand_search_cells = 1.75;
  f.learned_result_cells = 5.5;
  f.hand_result_cells = 6.25;
  EXPECT_EQ(describe_fit(f),
            "held out: 1234 positions; search-score loss 0.00436 (hand 0.00747); log loss of the results 0.4100 "
            "(hand 0.4600, material 0.5200); cells from the search score 1.34 (hand 1.75), from the final margin "
            "5.50 (hand 6.25)");
  const nlohmann::json j = nlohmann::json::parse(view::to_json(f));
  EXPECT_EQ(j["fit_positions"], 1234);
  EXPECT_DOUBLE_EQ(j["learned_search_loss"].get<double>(), 0.00436);
  EXPECT_DOUBLE_EQ(j["material_log_loss"].get<double>(), 0.52);
  EXPECT_DOUBLE_EQ(j["hand_result_cells"].get<double>(), 6.25);
}

}  // namespace
}  // namespace mushroom::run
