// The learned evaluation's network: its weights, as training writes them and
// the search reads them (nnue/evaluator.h runs them), and its file format. Plain C++17 with no
// library, so that the exported bot embeds it.
//
// The architecture (an NNUE-style net: Stockfish's design, sized for one core):
//   cell state   per perspective p (the first or the second player's view):
//                the cell's digit - 1 (0..8) when it holds a mushroom, else
//                9 (nobody owns it), 10 (p owns it) or 11 (p's opponent owns it)
//   features     per perspective, 456 active of kFeatures (nnue/features.h):
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
//                with mobility inputs, kMobilityInputs more, each 0 or 1,
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
// mobility_inputs (kMobilityInputs). Reading checks the size, magic, shape
// ranges, hash, finite values, that the values fit the integer runtime and
// that no evaluation can leave the search's range (kMaxEvaluationCells).
// ("MSHEVAL1" files, cell features only, are refused by name: retrain.
// So are "MSHEVAL5" files, the window features of issue 100, rejected at
// the real clock and removed: docs/history/rejected.md.)
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "nnue/shape.h"

namespace mushroom::nnue {

// A weights file that cannot be used; the message names the source and the problem.
class NetworkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Network {
  Shape shape;
  std::vector<float> ft_weight;   // [kFeatures][H]
  std::vector<float> ft_bias;     // [H]
  std::vector<float> l1_weight;   // [S][L1][shape.dense_inputs()], S = shape.stacks()
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
  // All zeros but the skips (1, 0.5): the hand evaluation, in this shape.
  static Network hand_equivalent(const Shape& shape);
};

// The file's bytes; throws NetworkError naming `source` on any problem.
Network parse_network(const std::string& bytes, const std::string& source);
Network read_network(const std::string& path);
// The file's bytes unparsed (for a caller that also hashes them); throws
// NetworkError naming the path when it cannot be read.
std::string read_network_bytes(const std::string& path);
std::string serialize_network(const Network& network);

// The integer runtime's scales (nnue/evaluator.h): values that do not fit
// them are refused by the reader, naming the tensor.
constexpr float kFtScale = 127.0f;     // transformer weights and biases -> int16; crelu's 1 is 127
constexpr float kDenseScale = 64.0f;   // l1, l2, out weights -> int8
constexpr float kSkipScale = 1024.0f;  // skip weights -> int32
// A transformer value (ft.weight, ft.bias) as the integer runtime adds it,
// before its int16 cast: the reader bounds the accumulator with the same
// rounding.
inline long ft_integer(float v) { return std::lround(v * kFtScale); }
// And the reader's bounds on what those scales leave open: a dense layer's
// bias (its int32 sums), and the largest evaluation a net can give, in
// cells (alpha-beta's scores stay far inside its infinity, 1,875 cells, and
// its table's int16; the shipped nets reach about 200).
constexpr float kMaxDenseBias = 1000.0f;
constexpr double kMaxEvaluationCells = 1500.0;

}  // namespace mushroom::nnue
