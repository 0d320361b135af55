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
//                mover_moved_first]: 2H + 2 numbers; crelu(x) = min(max(x, 0), 1)
//   l1, l2       dense, then crelu: 2H + 2 -> L1 -> L2
//   output       y = out.weight . h2 + out.bias, in cells, plus the skip
//                terms skip_margin * margin + skip_gain * best_gain, where
//                margin is the mover's cells minus the opponent's and
//                best_gain the mover's best immediate margin gain. With the
//                rest zero and skips (1, 0.5) it is the hand evaluation.
//   The evaluation is 16 * (output) in the search's units (1/16 cells).
//
// The file (little-endian): the magic "MSHEVAL2", u32 H, u32 L1, u32 L2,
// then float32 tensors in the order of tensor_names(), then a u64 FNV-1a
// hash of every preceding byte. Reading checks the size, magic, shape
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

// A weights file that cannot be used; the message names the source and the problem.
class LearnedEvalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LearnedEvalModel {
  int hidden = 64;  // H: a multiple of 16, 16..512
  int l1 = 16;      // 1..64
  int l2 = 16;      // 1..64
  std::vector<float> ft_weight;   // [kEvalFeatures][H]
  std::vector<float> ft_bias;     // [H]
  std::vector<float> l1_weight;   // [L1][2H + kEvalFlags]
  std::vector<float> l1_bias;     // [L1]
  std::vector<float> l2_weight;   // [L2][L1]
  std::vector<float> l2_bias;     // [L2]
  std::vector<float> out_weight;  // [L2]
  float out_bias = 0;
  float skip_margin = 1, skip_gain = 0.5f;

  // The tensors in file order, with their sizes (a scalar has size 1).
  struct TensorRef {
    const char* name;
    float* data;
    size_t size;
  };
  std::vector<TensorRef> tensors();
  // All zeros but the skips (1, 0.5): the hand evaluation, at these sizes.
  static LearnedEvalModel hand_equivalent(int hidden, int l1, int l2);
};

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
