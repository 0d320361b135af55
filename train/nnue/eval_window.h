// The learned evaluation's training window, packed: tens of millions of
// positions held in memory at 96 bytes each (the conv net's Sample costs
// about five times that). Positions are kept as their cells, and the
// features are computed from them batch by batch (train/nnue/eval_net.h).
// Shards of schema 3 ("mushroom-eval3"), 2 ("mushroom-eval2") and 1
// ("mushroom-eval") are read; a shard of anything else is named and skipped.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mushroom/position.h"
#include "mushroom/static_evaluator.h"
#include "selfplay/sample.h"
#include "util/rng.h"

namespace mushroom::train {

struct EvalRecord {
  uint8_t cells[85];       // schema 2's cell codes (selfplay/sample.h), two a byte, the even cell low
  uint8_t flags;           // the k* bits below
  int16_t search_score;    // 1/16 cells for the side to move
  int16_t margin;          // the final margin for the side to move, cells
  int16_t teacher;         // the teacher's value * 1000 (kHasTeacher)
  int16_t ply;
  int8_t gain;             // the side to move's best immediate margin gain, cells
  uint8_t mushrooms_left;  // the game's phase
  static constexpr uint8_t kSecondToMove = 1, kLastPass = 2, kExact = 4, kHasTeacher = 8;
};
static_assert(sizeof(EvalRecord) == 96, "the window's size per position is documented as 96 bytes");

EvalRecord eval_record(const Position& pos, const selfplay::EvalLabels& labels);
Position position_of(const EvalRecord& r);
selfplay::EvalLabels labels_of(const EvalRecord& r);
// The leaf scan of r's position pos (position_of(r), or one of its
// symmetries, which change neither figure): the recorded gain, and the count
// of legal rectangles, which the record does not keep and is found again.
LeafMoves leaf_moves_of(const EvalRecord& r, const Position& pos);
inline bool mover_moved_first(const EvalRecord& r) { return !(r.flags & EvalRecord::kSecondToMove); }

struct EvalWindow {
  std::vector<EvalRecord> records;  // oldest first
  std::vector<std::string> used;     // shards read
  std::vector<std::string> skipped;  // "path: reason" for shards that failed their check
  size_t size() const { return records.size(); }
};

// Reads shards from the newest backwards until window_samples positions are
// held (then trims to exactly that many, the newest), on `threads` threads
// for the packing. A shard that fails to open or its schema check, or is of
// another game, is reported through warn by name with the reason and skipped.
EvalWindow load_eval_window(const std::vector<std::string>& shards_oldest_first, int64_t window_samples,
                            const std::function<void(const std::string&)>& warn, int threads = 1);

// Packs samples of an evaluation schema (the game's best gain computed here).
void append_records(const std::vector<selfplay::Sample>& samples, const selfplay::SampleSchema& schema,
                    std::vector<EvalRecord>& out, int threads = 1);

}  // namespace mushroom::train

namespace mushroom::train {

// Which of the window's positions batches draw ([evalnet] filters).
struct EvalFilters {
  int skip_gain_at_least = 0;  // cells; 0: off
  int drop_contradicting = 0;  // cells; 0: off
  bool phase_balance = false;  // each of kBalanceBands phase bands equally often
  // Positions with focus_min..focus_max mushrooms left (inclusive) are drawn
  // focus_weight times as often as the others of their phase band (1: as
  // the games made them). Games between strong bots are decided at 95-130
  // left (issue 100, item 4).
  double focus_weight = 1;
  int focus_min = 95, focus_max = 130;
};

class EvalSampler {
 public:
  static constexpr int kBalanceBands = 4;
  // A position's phase band: the stack a net with kBalanceBands phase
  // buckets would use (nnue::Shape::bucket).
  static int phase_band(int mushrooms_left);
  EvalSampler(const EvalWindow& window, const EvalFilters& filters);
  // An index into the window, uniformly over the kept positions (or over
  // the phase bands, then within one), the focus band's positions
  // focus_weight times as likely as the rest.
  int draw(Rng& rng) const;
  int64_t kept() const { return kept_; }
  // The chance that a draw is a position of the focus band (what the
  // draws make of the filters, for the log and the tests).
  double focus_share() const;
  // One line: how many positions each filter left out, and the bands' sizes.
  std::string describe() const;

 private:
  // The kept positions' indices by group: a phase band (one band without
  // balance), split into the focus band's positions and the rest when
  // focus_weight is not 1. Empty groups are dropped.
  std::vector<std::vector<int>> groups_;
  std::vector<int64_t> group_focus_count_;  // each group's positions in the focus band
  // Running sums of the groups' chances, when they are not all equal (the
  // focus weighted); empty: each group equally likely.
  std::vector<double> cumulative_;
  int64_t kept_ = 0, total_ = 0, gain_left_out_ = 0, contradicting_left_out_ = 0;
  EvalFilters filters_;
};

}  // namespace mushroom::train
