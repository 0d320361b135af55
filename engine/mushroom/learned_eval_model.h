// The learned evaluation's weights, as training writes them and the search
// reads them (mushroom/learned_evaluator.h runs them). Plain C++17 with no
// library, so that the exported bot embeds it.
//
// The architecture (an NNUE-style net: Stockfish's design, sized for one core):
//   cell state   per perspective p (the first or the second player's view):
//                the cell's digit - 1 (0..8) when it holds a mushroom, else
//                9 (nobody owns it), 10 (p owns it) or 11 (p's opponent owns it)
//   features     per perspective, 456 active of kEvalFeatures:
//                - one per cell, where it is: cell * 12 + state (2,040 in all);
//                - one per three cells side by side in a row, and one per
//                  three cells one above another in a column: the triple of
//                  states s0 * 144 + s1 * 12 + s2, one table for rows and one
//                  for columns (1,728 each), shared by every place on the
//                  board. Triples see what single cells cannot: two digits
//                  that make 10 next to each other, an owned cell beside
//                  taken ground (Othello's pattern evaluations do the same);
//   transformer  A_p = ft.bias + sum of ft.weight rows of p's active
//                features: H numbers, kept incrementally (a move changes
//                only its rectangle's cells and the triples that touch them)
//   input        [crelu(A_mover), crelu(A_opponent), last_move_was_pass,
//                mover_moved_first]: 2H + 2 numbers; crelu(x) = min(max(x, 0), 1);
//                with mobility inputs, kEvalMobilityInputs more, each 0 or 1,
//                from the number n of legal rectangles (the same for both
//                players: a rectangle's legality does not depend on who
//                takes it): n >= 1, 2, 3, 5, 9, 17, 33, 65 (a thermometer),
//                and n odd. The search counts the rectangles at every leaf
//                anyway (its best-gain scan); no cell pattern of the
//                transformer can count rectangles of every size.
//   l1, l2       dense, then crelu: 2H + 2 (+ 9 mobility inputs) -> L1 -> L2
//   buckets      the dense layers (l1, l2, out) come in phase_buckets x
//                seat_buckets stacks, and the position picks one, as
//                Stockfish's output buckets do: the phase by the
//                mushrooms taken so far (equal bands of the first 112,
//                the last band holding the rest: games end with 40 to 100
//                of the 170 left), the seat by whether the side to move
//                moved first (seat_buckets 2).
//                Stack s = seat * phase_buckets + phase. 1 x 1: no buckets.
//   output       y = out.weight . h2 + out.bias, in cells, plus the skip
//                terms skip_margin * margin + skip_gain * best_gain, where
//                margin is the mover's cells minus the opponent's and
//                best_gain the mover's best immediate margin gain. With the
//                rest zero and skips (1, 0.5) it is the hand evaluation.
//   The evaluation is 16 * (output) in the search's units (1/16 cells).
//
// The file (little-endian): the magic "MSHEVAL2", u32 H, u32 L1, u32 L2,
// then float32 tensors in the order of tensors(), then a u64 FNV-1a hash
// of every preceding byte. A model with buckets is "MSHEVAL3", with u32
// phase_buckets and u32 seat_buckets after L2 (the dense tensors then hold
// every stack, stack by stack); one without is written as MSHEVAL2. A model
// with mobility inputs is "MSHEVAL4": MSHEVAL3's header, then u32
// mobility_inputs (kEvalMobilityInputs). Reading checks the size, magic, shape
// ranges, hash, finite values and that the values fit the integer runtime.
// ("MSHEVAL1" files, cell features only, are refused by name: retrain.)
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mushroom {

constexpr int kEvalCellStates = 12;
constexpr int kEvalCellFeatures = 170 * kEvalCellStates;
constexpr int kEvalTripleFeatures = kEvalCellStates * kEvalCellStates * kEvalCellStates;
constexpr int kEvalRowTripleBase = kEvalCellFeatures;
constexpr int kEvalColumnTripleBase = kEvalRowTripleBase + kEvalTripleFeatures;
constexpr int kEvalFeatures = kEvalColumnTripleBase + kEvalTripleFeatures;
// Active per perspective: 170 cells, 10 rows of 15 triples, 17 columns of 8.
constexpr int kEvalActiveFeatures = 170 + 10 * 15 + 17 * 8;
constexpr int kEvalFlags = 2;  // last_move_was_pass, mover_moved_first
constexpr int kEvalMobilityInputs = 9;  // the rectangle count's thermometer (8) and parity
constexpr int kEvalMaxPhaseBuckets = 8;
constexpr int kEvalPhaseSpan = 112;  // mushrooms taken over which the phase bands lie

// The dense stack a position uses (learned_eval_model.h, "buckets").
inline int learned_eval_bucket(int phase_buckets, int seat_buckets, int mushrooms_left, bool mover_moved_first) {
  const int taken = 170 - mushrooms_left;
  int phase = taken * phase_buckets / kEvalPhaseSpan;  // equal bands of the first kEvalPhaseSpan taken
  if (phase >= phase_buckets) phase = phase_buckets - 1;
  if (phase < 0) phase = 0;
  return (seat_buckets == 2 && !mover_moved_first ? phase_buckets : 0) + phase;
}

// The mobility inputs of a position with `rectangles` legal rectangles
// (the top of this file) into out[0..kEvalMobilityInputs): `one` where an
// input is on, 0 where it is off (1 in float, 127 in the integer runtime).
template <typename T>
void learned_eval_mobility(int rectangles, T one, T* out) {
  constexpr int kSteps[kEvalMobilityInputs - 1] = {1, 2, 3, 5, 9, 17, 33, 65};
  for (int i = 0; i < kEvalMobilityInputs - 1; ++i) out[i] = rectangles >= kSteps[i] ? one : T(0);
  out[kEvalMobilityInputs - 1] = rectangles % 2 == 1 ? one : T(0);
}

// A weights file that cannot be used; the message names the source and the problem.
class LearnedEvalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LearnedEvalModel {
  int hidden = 64;  // H: a multiple of 16, 16..512
  int l1 = 16;      // 1..64
  int l2 = 16;      // 1..64
  int phase_buckets = 1;  // 1..kEvalMaxPhaseBuckets
  int seat_buckets = 1;   // 1 or 2
  bool mobility = false;  // kEvalMobilityInputs more dense inputs (the top of this file)
  std::vector<float> ft_weight;   // [kEvalFeatures][H]
  std::vector<float> ft_bias;     // [H]
  std::vector<float> l1_weight;   // [S][L1][dense_inputs()], S = stacks()
  std::vector<float> l1_bias;     // [S][L1]
  std::vector<float> l2_weight;   // [S][L2][L1]
  std::vector<float> l2_bias;     // [S][L2]
  std::vector<float> out_weight;  // [S][L2]
  std::vector<float> out_bias = {0.0f};  // [S]
  float skip_margin = 1, skip_gain = 0.5f;

  // The tensors in file order, with their sizes (a scalar has size 1).
  struct TensorRef {
    const char* name;
    float* data;
    size_t size;
  };
  std::vector<TensorRef> tensors();
  int stacks() const { return phase_buckets * seat_buckets; }
  // The first dense layer's inputs: 2H + kEvalFlags, and the mobility inputs.
  int dense_inputs() const { return 2 * hidden + kEvalFlags + (mobility ? kEvalMobilityInputs : 0); }
  int bucket(int mushrooms_left, bool mover_moved_first) const {
    return learned_eval_bucket(phase_buckets, seat_buckets, mushrooms_left, mover_moved_first);
  }
  // All zeros but the skips (1, 0.5): the hand evaluation, at these sizes.
  static LearnedEvalModel hand_equivalent(int hidden, int l1, int l2, int phase_buckets = 1, int seat_buckets = 1,
                                          bool mobility = false);
};

// "H=64 L1=16 L2=16", with ", 4 phase x 2 seat buckets" when it has them
// and ", mobility inputs" when it has those.
std::string learned_eval_architecture(int hidden, int l1, int l2, int phase_buckets, int seat_buckets, bool mobility);
std::string learned_eval_architecture(const LearnedEvalModel& model);

// The file's bytes; throws LearnedEvalError naming `source` on any problem.
LearnedEvalModel parse_learned_eval(const std::string& bytes, const std::string& source);
LearnedEvalModel read_learned_eval(const std::string& path);
std::string serialize_learned_eval(const LearnedEvalModel& model);

// The integer runtime's scales (mushroom/learned_evaluator.h): values that
// do not fit them are refused by the reader, naming the tensor.
constexpr float kFtScale = 127.0f;     // transformer weights and biases -> int16; crelu's 1 is 127
constexpr float kDenseScale = 64.0f;   // l1, l2, out weights -> int8
constexpr float kSkipScale = 1024.0f;  // skip weights -> int32

}  // namespace mushroom
