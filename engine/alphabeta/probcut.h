// Multi-ProbCut (Buro's, as Logistello, Edax and Egaroucid prune with it):
// at a null-window node with `depth` plies left, a search `shallow` plies
// deep (the same parity) predicts the deep one's value,
//     deep ~ slope * shallow_value + offset,  residual spread sigma,
// fitted per band of mushrooms left and per depth on self-play positions
// (`mushroom probcut-fit`, agents/probcut_fitting.h). When the prediction
// lies `sigmas` spreads above beta (or below alpha), the node is cut
// without its deep search: a null-window shallow search around the bound
// that the prediction must clear decides it.
//
// The fit is a text file, one line per fact, '#' starting a comment:
//   evaluation HASH        the evaluation it was fitted with: the FNV-1a of
//                          the evaluation file's bytes, or `hand`
//   pair LO HI DEPTH SHALLOW SLOPE OFFSET SPREAD SAMPLES CORRELATION
//                          one band's (LO..HI mushrooms left) fitted pair;
//                          DEPTH `exact`: the exact final margin (times 16,
//                          the search's units) predicted from a shallow
//                          search, the endgame solver's selective mode
// An unknown key, a malformed or out-of-range value, a band that is not
// one of kBandWidth's or a repeated band and depth is refused by line.
#pragma once
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace mushroom {

struct ProbCutPair {
  int depth = 0, shallow = 0;  // plies; shallow < depth, same parity; depth kExactDepth: the exact margin
  double slope = 1, offset = 0, spread = 0;  // the search's units (1/16 cells)
  int samples = 0;
  double correlation = 0;  // of the shallow and deep values, as fitted
};

class ProbCutFit {
 public:
  static constexpr int kBandWidth = 20;  // mushrooms left per band: 0-19, 20-39, ..., 160-170
  static constexpr int kBands = 170 / kBandWidth + 1;
  static constexpr int kMaxDepth = 32;
  static constexpr int kExactDepth = kMaxDepth + 1;  // "the exact margin", written `exact`
  static int band_of(int mushrooms_left) { return std::min(mushrooms_left, 170) / kBandWidth; }
  static int band_first(int band) { return band * kBandWidth; }
  static int band_last(int band) { return std::min(170, (band + 1) * kBandWidth - 1); }

  std::string evaluation = "hand";  // "hand", or the evaluation file's FNV-1a (16 hex digits)

  // Throws std::invalid_argument naming the problem (depth out of range,
  // shallow not below it or of another parity, slope or spread not above 0).
  void set(int band, const ProbCutPair& pair);
  // The pair for a node of the heuristic search, null when none was fitted there.
  const ProbCutPair* at(int mushrooms_left, int depth) const {
    return depth < 0 || depth > kMaxDepth ? nullptr : fitted(mushrooms_left, depth);
  }
  // The pair predicting the exact margin, null when none was fitted there.
  const ProbCutPair* exact_at(int mushrooms_left) const { return fitted(mushrooms_left, kExactDepth); }
  // Every fitted (band, pair), by band then depth.
  std::vector<std::pair<int, ProbCutPair>> entries() const;
  bool empty() const { return entries().empty(); }

 private:
  const ProbCutPair* fitted(int mushrooms_left, int depth) const {
    const ProbCutPair& p = pairs_[band_of(mushrooms_left)][depth];
    return p.depth ? &p : nullptr;
  }
  std::array<std::array<ProbCutPair, kExactDepth + 1>, kBands> pairs_{};
};

// The evaluation name a fit records: "hand" for "" (the hand evaluation),
// else the FNV-1a of the file's bytes. Throws std::runtime_error naming an
// unreadable file.
std::string probcut_evaluation_name(const std::string& eval_path);
// The same name from the file's bytes already read.
std::string probcut_evaluation_of_bytes(const std::string& eval_bytes);

// Throws ParseError (util/parse_error.h) naming `source` and the line.
ProbCutFit parse_probcut_fit(const std::string& text, const std::string& source);
ProbCutFit read_probcut_fit(const std::string& path);
// The file's text, with a header comment and a column legend.
std::string format_probcut_fit(const ProbCutFit& fit, const std::string& header_comment = "");

// Throws std::invalid_argument when the fit was made with another
// evaluation, naming both.
void check_probcut_evaluation(const ProbCutFit& fit, const std::string& evaluation, const std::string& source);

// Least squares of deep on shallow values: slope, offset, the residuals'
// standard deviation and the correlation. Fewer than 3 samples, or shallow
// values that do not vary, give samples = 0 (no fit).
ProbCutPair fit_probcut_pair(int depth, int shallow, const std::vector<std::pair<double, double>>& shallow_deep);

}  // namespace mushroom
