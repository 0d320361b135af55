#include "run/heldout_fit.h"

#include <cmath>
#include <cstdio>

#include "mushroom/mushroom_evaluators.h"
#include "nnue/evaluator.h"
#include "run/eval_pipeline.h"  // fit_results
#include "train/training_data.h"  // find_shards

namespace mushroom::run {

std::vector<train::EvalRecord> read_heldout_positions(const std::string& dir, int threads,
                                                      const std::function<void(const std::string&)>& warn) {
  return train::load_eval_window(train::find_shards(dir), int64_t(1) << 40, warn, threads).records;
}

view::FitRecord heldout_fit(const std::vector<train::EvalRecord>& records, const nnue::Network& candidate,
                            double scale) {
  nnue::Evaluator learned(candidate);
  std::vector<double> learned_x, hand_x, material_x, results, searched, margins;
  for (const train::EvalRecord& r : records) {
    const Position pos = train::position_of(r);
    learned.set_root(pos);
    learned_x.push_back(learned.evaluate(pos, train::leaf_moves_of(r, pos)) / double(kEvalScale));
    hand_x.push_back(hand_evaluation(pos, r.gain) / double(kEvalScale));
    material_x.push_back(pos.margin_for_side_to_move());
    results.push_back(r.margin > 0 ? 1.0 : r.margin < 0 ? 0.0 : 0.5);
    searched.push_back(r.search_score / double(kEvalScale));
    margins.push_back(r.margin);
  }
  // The probability target's error, at the training scale (train/nnue/eval_net.h).
  const auto search_loss = [&](const std::vector<double>& x) {
    double total = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double d = 1 / (1 + std::exp(-x[i] / scale)) - 1 / (1 + std::exp(-searched[i] / scale));
      total += d * d;
    }
    return x.empty() ? 0.0 : total / double(x.size());
  };
  const auto cells_error = [](const std::vector<double>& x, const std::vector<double>& truth) {
    double total = 0;
    for (size_t i = 0; i < x.size(); ++i) total += std::fabs(x[i] - truth[i]);
    return x.empty() ? 0.0 : total / double(x.size());
  };
  view::FitRecord f{fit_results(learned_x, results).log_loss, fit_results(hand_x, results).log_loss,
                    fit_results(material_x, results).log_loss, int(records.size())};
  f.learned_search_loss = search_loss(learned_x);
  f.hand_search_loss = search_loss(hand_x);
  f.learned_search_cells = cells_error(learned_x, searched);
  f.hand_search_cells = cells_error(hand_x, searched);
  f.learned_result_cells = cells_error(learned_x, margins);
  f.hand_result_cells = cells_error(hand_x, margins);
  return f;
}

std::string describe_fit(const view::FitRecord& f) {
  char line[400];
  std::snprintf(line, sizeof line,
                "held out: %d positions; search-score loss %.5f (hand %.5f); log loss of the results %.4f (hand "
                "%.4f, material %.4f); cells from the search score %.2f (hand %.2f), from the final margin %.2f "
                "(hand %.2f)",
                f.positions, f.learned_search_loss, f.hand_search_loss, f.learned_log_loss, f.hand_log_loss,
                f.material_log_loss, f.learned_search_cells, f.hand_search_cells, f.learned_result_cells,
                f.hand_result_cells);
  return line;
}

}  // namespace mushroom::run
