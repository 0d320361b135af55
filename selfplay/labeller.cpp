#include "selfplay/labeller.h"

#include <stdexcept>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "endgame/endgame_solver.h"
#include "alphabeta/probcut.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"

namespace mushroom::selfplay {

namespace {

// The label search's settings (check_label_config has passed). A worker's
// table is 2^18 entries (4 MiB), enough for a depth-5 or depth-6 search,
// so that many workers fit.
AlphaBetaConfig label_search_config(const std::string& search) {
  AlphaBetaConfig c = search == "playing" ? playing_search_config() : AlphaBetaConfig{};
  c.tt_bits = 18;
  return c;
}

}  // namespace

void check_label_config(const LabelConfig& config) {
  if (config.search != "plain" && config.search != "playing")
    throw std::invalid_argument("label search '" + config.search + "' is unknown: use \"plain\" or \"playing\"");
  if (config.depth < 1 || config.depth > 12)
    throw std::invalid_argument("label depth " + std::to_string(config.depth) + " is outside [1, 12]");
  if (config.focus_depth != 0 && (config.focus_depth < 1 || config.focus_depth > 12))
    throw std::invalid_argument("label focus depth " + std::to_string(config.focus_depth) +
                                " is outside [1, 12] (0: the label depth everywhere)");
  if (config.focus_min > config.focus_max)
    throw std::invalid_argument("the focus band " + std::to_string(config.focus_min) + ".." +
                                std::to_string(config.focus_max) + " mushrooms left is empty");
  if (config.probcut && config.search != "playing")
    throw std::invalid_argument("label_probcut prunes the playing search, the one the fits are made with and the "
                                "contest bot plays: set label_search = \"playing\", not \"" + config.search + "\"");
}

void check_label_fit(const LabelConfig& config, const nnue::Network* evaluation, const ProbCutFit* fit,
                     const std::string& source) {
  if (config.probcut && !fit)
    throw std::invalid_argument("label_probcut is on but no Multi-ProbCut fit was given for the label's evaluation");
  if (!config.probcut && fit)
    throw std::invalid_argument("a Multi-ProbCut fit (" + source + ") was given but label_probcut is off");
  if (!fit) return;
  // The evaluation file's bytes are the network serialized (its reader keeps
  // an older file's format), so their hash is the fit's `evaluation` line.
  const std::string name = evaluation ? probcut_evaluation_of_bytes(nnue::serialize_network(*evaluation)) : "hand";
  check_probcut_evaluation(*fit, name, source);
}

Labeller::Labeller(const LabelConfig& config, const nnue::Network* evaluation, const ProbCutFit* fit)
    : config_(config) {
  check_label_config(config);
  check_label_fit(config, evaluation, fit, "the label's fit");
  const AlphaBetaConfig search_config = label_search_config(config.search);
  if (evaluation) evaluator_ = std::make_unique<nnue::Evaluator>(*evaluation);
  search_ = std::make_unique<AlphaBeta>(search_config, evaluator_.get());
  search_->set_probcut(fit);  // null: no ProbCut; the sigmas and depth are the contest bot's (playing_search_config)
  if (config.exact_mushrooms > 0) {
    EndgameConfig solver_config;
    solver_config.tt_bits = 20;
    solver_ = std::make_unique<EndgameSolver>(solver_config);
  }
}

Labeller::~Labeller() = default;

bool Labeller::tries_exact(const Position& pos, bool keep_proof) const {
  return solver_ && (keep_proof || pos.mushrooms_left() <= config_.exact_mushrooms);
}

std::optional<Label> Labeller::prove(const Position& pos, bool keep_proof) {
  if (!tries_exact(pos, keep_proof)) return std::nullopt;
  if (!keep_proof) solver_->clear();
  EndgameSolver::Limits limits;
  limits.nodes = uint64_t(config_.exact_nodes);
  const std::optional<EndgameProof> proof = solver_->solve(pos, limits);
  if (!proof) return std::nullopt;
  Label out;
  out.labels.search_score = proof->margin * kEvalScale;
  out.labels.exact = true;
  out.best = proof->best;
  out.tried_exact = true;
  return out;
}

Label Labeller::label(const Position& pos, bool keep_proof) {
  if (std::optional<Label> proven = prove(pos, keep_proof)) return *proven;
  Label out;
  out.tried_exact = tries_exact(pos, keep_proof);
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(24);
  search_->clear();
  const int depth = config_.depth_at(pos.mushrooms_left());
  const AlphaBetaResult r = search_->search(pos, far, depth, uint64_t(config_.nodes));
  out.search_nodes = r.nodes;
  out.best = r.best;
  out.labels.search_score = r.score;
  if (config_.parity_mean && !r.exact) {
    // One ply deeper on the same table: the two parities' mean. A search
    // that reached the game's end (exact) has no parity to even out.
    const AlphaBetaResult deeper = search_->search(pos, far, depth + 1, uint64_t(config_.nodes));
    out.search_nodes += deeper.nodes;
    if (deeper.depth > r.depth) {
      out.best = deeper.best;
      out.labels.search_score = parity_mean(r.score, deeper.score);
    }
  }
  return out;
}

std::string describe(const LabelConfig& config) {
  std::string s = config.search + " depth " + std::to_string(config.depth);
  if (config.parity_mean) s += "+" + std::to_string(config.depth + 1) + " mean";
  if (config.focus_depth > 0)
    s += " (" + std::to_string(config.focus_depth) +
         (config.parity_mean ? "+" + std::to_string(config.focus_depth + 1) : std::string()) + " at " +
         std::to_string(config.focus_min) + "-" + std::to_string(config.focus_max) + " left)";
  if (config.probcut) s += " with ProbCut";
  if (config.nodes > 0) s += " within " + std::to_string(config.nodes) + " nodes";
  if (config.exact_mushrooms > 0) s += ", exact at <= " + std::to_string(config.exact_mushrooms) + " left";
  return s;
}

}  // namespace mushroom::selfplay
