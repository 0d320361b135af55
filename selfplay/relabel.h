// The offline relabelling pass (issue 71): the learned evaluation's data
// labelled again, position for position, by other label settings
// (selfplay/labeller.h): the playing search instead of the plain one, a
// deeper or parity-averaged search, or exact final margins where the
// endgame solver proves them. The positions, the games' final margins and
// everything else a sample holds stay as they were, so label kinds are
// compared on the same positions and a slow label (the solver) need not be
// paid for during self-play.
//
// Each input shard becomes one output shard of the same name under the
// output folder (schema 3, mushroom-eval3), written to a temp name and
// renamed when complete; a pass that stops is run again and skips the
// output shards already there. Before any shard, the pass records its
// settings in out_dir/settings.json (the data folder, the label settings,
// mode, lambda, evaluation and its fingerprint, the ProbCut fit and its
// fingerprint, range and limit); a pass
// run again into that folder with other settings is refused, naming each
// setting that changed, so that old shards are never kept as new labels.
// Beside the shards, report.json and the
// printed table say how far the new labels are from the old: by band of
// mushrooms left, the samples, the proven share, the mean absolute and
// the mean signed change in cells, and how often the sign of the label
// flipped (the side ahead changed).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "selfplay/labeller.h"

namespace mushroom::selfplay {

struct RelabelJob {
  std::vector<std::string> shards;  // learned-evaluation shards (either schema), in order
  std::string data_root;            // the folder they were found under: output names keep their path below it
  std::string out_dir;
  LabelConfig label;
  // "search": every kept sample gets the new label; "exact": only the
  // samples the solver proves change (exact_mushrooms must be set), the
  // others keep their label; "horizon": no search, each label is mixed
  // with the next positions' of its game (the short-horizon target, as
  // KataGo mixes future values into its value targets):
  //   target(t) = (1 - lambda) * label(t) - lambda * target(t + 1),
  // the next position's target seen from this side, where the move from t
  // followed the search (not random, schema 3 only) and t + 1 is the next
  // ply of the same game; otherwise, and for exact labels, target(t) =
  // label(t). "focus": only the samples in label's focus band
  // (focus_min..focus_max mushrooms left, focus_depth must be set) are
  // searched again, at the focus depth; the others keep their label, so
  // the labels' budget at the band is measured on the same positions
  // (issue 100, item 4) without searching the rest again.
  std::string mode = "search";
  double horizon_lambda = 0.5;  // "horizon": the next positions' share, in (0, 1]
  int min_left = 0, max_left = 170;  // samples with mushrooms left outside [min_left, max_left] are dropped
  int64_t limit = 0;                 // keep at most this many samples, spread evenly over the input (0: all)
  int threads = 1;
  std::shared_ptr<const nnue::Network> evaluation;  // the label search's evaluation (null: the hand one)
  std::string evaluation_id;                        // recorded as the output shards' model_id
  // With label.probcut: the evaluation's Multi-ProbCut fit (made with it,
  // or refused by name) and its file, recorded in settings.json.
  std::shared_ptr<const ProbCutFit> probcut;
  std::string probcut_id;
  double progress_seconds = 10;
  std::function<void(const std::string&)> progress;  // a line every progress_seconds and at each shard's end
};

// How the new labels differ from the old, over some samples.
struct LabelChange {
  int64_t samples = 0;
  int64_t proven = 0;      // the new label is exact
  int64_t was_exact = 0;   // the old label was exact
  int64_t sign_flips = 0;  // old and new labels on opposite sides of zero (both nonzero)
  double abs_cells = 0;    // summed |new - old|, in cells
  double signed_cells = 0; // summed new - old, in cells
  // The same three over the proven samples only (the exact labels' distance from the old ones).
  int64_t proven_sign_flips = 0;
  double proven_abs_cells = 0, proven_signed_cells = 0;
  void add(int old_score, int new_score, bool old_exact, bool new_exact);
  void add(const LabelChange& other);
};

struct RelabelReport {
  static constexpr int kBandWidth = 10;  // bands of mushrooms left: [0, 9], [10, 19], ..., [170, 170]
  std::array<LabelChange, 18> bands{};
  // The band of a position with this many mushrooms left, and a band's
  // first and last count.
  static size_t band_of(int mushrooms_left) { return size_t(mushrooms_left / kBandWidth); }
  static int band_first(size_t band) { return int(band) * kBandWidth; }
  static int band_last(size_t band) { return std::min(170, int(band + 1) * kBandWidth - 1); }
  LabelChange total;
  int64_t input_samples = 0;
  int shards_written = 0, shards_skipped = 0;  // skipped: already in the output folder
  uint64_t search_nodes = 0;
  int64_t searched = 0;  // samples labelled by a search ("search" mode: all; "focus": the band's), this run
  double seconds = 0;
};

// The "horizon" mode's labels (1/16 cells) for every sample of one shard,
// in order (RelabelJob::mode).
std::vector<int> horizon_scores(const std::vector<Sample>& samples, const SampleSchema& schema, double lambda);

// Checks every input shard's schema and the settings before any work, so
// that a conv-net shard, an unknown mode, a bad range or settings other
// than those of the pass already in out_dir, or a fit made with another
// evaluation (check_label_fit), are refused by name
// (std::invalid_argument); then relabels. Writes out_dir/settings.json
// first and out_dir/report.json at the end.
RelabelReport relabel(const RelabelJob& job);

// The report as a table, one line a band with samples, then the total.
std::string format_report(const RelabelReport& report);

}  // namespace mushroom::selfplay
