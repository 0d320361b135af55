// The TopCoder server's fixed strategy for PseudoTonga, exactly as seed 002
// states it:
// - on an empty board, one of the 4 centre squares;
// - otherwise every empty square s is scored by a 3-ply minimax: the server
//   plays s, we answer with our worst reply for it, the server plays its
//   best second move; the score is that leaf's evaluation. The leaf
//   evaluation sums area^2 * perimeter over all isles (perimeter: the empty
//   squares orthogonally next to the isle; off-board does not count), the
//   server's isles positive and ours negative. When the board fills up
//   before the third ply, the board at that point is evaluated;
// - ties between the best squares are broken uniformly at random by a
//   seeded RNG.
// The search is exact (the same set of best squares as plain minimax) but
// fast: isles are tracked incrementally, the third ply is computed as a
// change of evaluation per square without playing it, and branches that
// cannot reach the best score (or lower the minimum) are cut.
#pragma once
#include <cstdint>
#include <vector>

#include "seeds/pseudo_tonga.h"
#include "util/rng.h"

namespace mushroom::tonga {

// Isles with their areas and perimeters, updated as stones are placed and
// removed (undo), with the evaluation sum_i area_i^2 * perimeter_i kept per
// colour.
class IsleTracker {
 public:
  IsleTracker(const Geometry& g, const Board& b);
  void place(int cell, Color c);
  void undo();  // the last place()
  // area^2 * perimeter summed over colour c's isles.
  int64_t weighted(Color c) const { return weighted_[c]; }
  const Bits& empty() const { return empty_; }
  // How weighted(c) - weighted(other(c)) would change if c placed at cell.
  int64_t gain_if_placed(int cell, Color c) const;
  // From scratch, for tests: the same sum without tracking.
  static int64_t weighted_from_scratch(const Geometry& g, const Board& b, Color c);

 private:
  struct Isle {
    Bits cells, perimeter;
    int area = 0;
    Color color = kBlack;
  };
  struct Change {
    int cell;
    int new_isle;
    std::vector<int> merged;                       // same-colour isles absorbed
    std::vector<std::pair<int, Bits>> perimeters;  // other isles' perimeters before
    int64_t weighted[2];
  };
  int adjacent_isles(int cell, int* out) const;  // distinct isle ids next to cell
  int64_t term(const Isle& i) const { return int64_t(i.area) * i.area * i.perimeter.count(); }

  const Geometry& g_;
  Bits empty_;
  std::array<int16_t, kMaxCells> label_;
  std::vector<Isle> isles_;
  std::vector<Change> log_;
  int64_t weighted_[2] = {0, 0};
};

class TongaServer {
 public:
  TongaServer(const Geometry& g, Color color, uint64_t seed) : g_(g), color_(color), rng_(seed) {}
  Color color() const { return color_; }
  // The server's move on this board (it must be the server's turn and the
  // board not full).
  int choose(const Board& b);
  // Every square that ties for the best score, and that score (for tests).
  std::vector<int> best_squares(const Board& b, int64_t* score = nullptr) const;
  uint64_t leaves() const { return leaves_; }

 private:
  const Geometry& g_;
  Color color_;
  Rng rng_;
  mutable uint64_t leaves_ = 0;
};

// The plain 3-ply minimax from the definition, evaluating every leaf from
// scratch: slow, for testing TongaServer::best_squares on small boards.
std::vector<int> reference_best_squares(const Geometry& g, const Board& b, Color server, int64_t* score = nullptr);

}  // namespace mushroom::tonga
