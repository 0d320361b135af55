#include "mushroom/mushroom_evaluators.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mushroom/greedy.h"
#include "util/rng.h"

namespace mushroom {

void heuristic_priors(const Move* actions, int n, std::vector<float>& priors) {
  priors.assign(size_t(n), 0.f);
  int rects = 0;
  for (int i = 0; i < n; ++i) rects += !actions[i].is_pass();
  const float pass_weight = rects ? 0.1f : 1.f;
  const float total = float(rects) + (rects < n ? pass_weight : 0.f);
  for (int i = 0; i < n; ++i) priors[size_t(i)] = (actions[i].is_pass() ? pass_weight : 1.f) / total;
}

void RolloutEvaluator::evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) {
  for (size_t i = 0; i < requests.size(); ++i) {
    const EvalRequest<MushroomGame>& req = requests[i];
    Position pos = *req.state;
    const Player me = pos.to_move();
    for (int ply = 0; ply < 400 && !pos.game_over(); ++ply) pos.apply(greedy_move(pos));
    const int margin = pos.score(me) - pos.score(Player(1 - me));
    results[i].margin = float(margin);
    results[i].value = float(std::tanh(margin / 8.0));
    heuristic_priors(req.actions, req.num_actions, results[i].priors);
  }
}

void MaterialEvaluator::evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) {
  for (size_t i = 0; i < requests.size(); ++i) {
    const EvalRequest<MushroomGame>& req = requests[i];
    const Position& pos = *req.state;
    const double x = pos.margin_for_side_to_move() + 0.5 * best_margin_gain(pos, req.actions, req.num_actions);
    results[i].margin = float(x);
    results[i].value = float(std::tanh(x / 8.0));
    heuristic_priors(req.actions, req.num_actions, results[i].priors);
  }
}

void RandomEvaluator::evaluate(Span<const EvalRequest<MushroomGame>> requests, Span<EvalResult> results) {
  for (size_t i = 0; i < requests.size(); ++i) {
    const EvalRequest<MushroomGame>& req = requests[i];
    Rng rng(req.state->hash() ^ seed_);
    EvalResult& r = results[i];
    r.value = float(2 * rng.uniform_double() - 1);
    r.margin = r.value * 20;
    r.priors.assign(size_t(req.num_actions), 0.f);
    double total = 0;
    for (auto& p : r.priors) total += (p = float(0.05 + rng.uniform_double()));
    for (auto& p : r.priors) p = float(p / total);
  }
}

}  // namespace mushroom
