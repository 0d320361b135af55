// The learned evaluation (nnue/network.h) as alpha-beta's
// static evaluator, in integers: the transformer's two accumulators (one per
// perspective) are int16 (their weight rows int8 when every weight fits)
// and kept on a stack, one entry per pushed move,
// updated only for the cells the move changes and the triples touching
// them, and only when an evaluation needs them (lazily); the dense layers run on
// int8 weights with int32 sums. The kernels (nnue/kernels.h)
// run AVX2 when the CPU has it (chosen at run time, like the move
// generator; AVX-512 when asked for), with a scalar path giving the same
// integers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mushroom/static_evaluator.h"
#include "nnue/features.h"
#include "nnue/kernels.h"
#include "nnue/network.h"

namespace mushroom::nnue {

class Evaluator final : public StaticEvaluator {
 public:
  // use_simd: the default kernels (kernels::default_isa()); false
  // forces the scalar path (tests compare the two).
  explicit Evaluator(const Network& network, bool use_simd = true);
  // How the transformer's weight rows are kept: as int8 when every one of
  // them fits (half the memory a move's update reads; the same sums, see
  // kernels::update), else as int16; or as int16 always (tests
  // compare the two).
  enum class FeatureRows : uint8_t { kCompactWhenExact, kInt16 };
  // These kernels exactly; std::invalid_argument when the CPU lacks them.
  Evaluator(const Network& network, kernels::Isa isa, FeatureRows rows = FeatureRows::kCompactWhenExact);

  void set_root(const Position& root) override;
  void push(const Position& pos, const Move& move) override;
  void pop() override;
  int evaluate(const Position& pos, const LeafMoves& moves) override;
  // The evaluation with no gain when the gain's weight is not negative;
  // the dense layers' output is kept for evaluate() at the same node. A
  // model with mobility inputs has no floor: its net reads the scan.
  int evaluate_floor(const Position& pos) override;
  std::string name() const override { return "learned"; }
  bool uses_simd() const { return isa_ != kernels::Isa::kScalar; }
  kernels::Isa isa() const { return isa_; }
  bool compact_rows() const { return !ft_weight8_.empty(); }

 private:
  int16_t* accumulator(int depth) { return stack_.data() + size_t(depth) * 2 * shape_.hidden; }
  // A ply's cell states in the first player's view (nnue/features.h).
  uint8_t* states(int depth) { return states_.data() + size_t(depth) * kStatesSize; }
  // The dense layers' output for the current node, in cells times the runtime's sum scale
  // (the cached value while the node has not changed); rectangles feeds the
  // mobility inputs, if the model has them.
  int64_t net_output(const Position& pos, int rectangles);
  // The evaluation in the search's units from the net's output and the skips.
  int combine(const Position& pos, int64_t net, int best_gain) const;
  void refresh(const Position& pos, int16_t* acc) const;
  // Computes the accumulators (and cell states) of the plies pushed since
  // the last evaluation, from the deepest one still valid.
  void bring_up_to_date();
  // Ply `depth`'s accumulators and states from those of depth - 1 and its move.
  void compute_ply(int depth);
  // to = from - the removed features' rows + the added ones' (H units).
  void apply_changes(const int16_t* from, int16_t* to, const int* removed, int n_removed, const int* added,
                     int n_added) const;

  Shape shape_;
  int input_padded_;    // the dense inputs rounded up to 32 (l1's int8 rows' stride)
  int hidden1_padded_;  // L1 rounded up to 32 (l2's int8 rows' stride)
  int hidden2_padded_;  // L2 rounded up to 32 (out's int8 row's stride)
  kernels::Isa isa_;
  std::vector<int16_t> ft_weight_, ft_bias_;  // ft_weight_ empty when the rows are compact
  std::vector<int8_t> ft_weight8_;            // the compact rows, or empty
  std::vector<int8_t> out_weight_;  // [S][hidden2_padded_]
  // l1's and l2's int8 weights in kernels::dense_sparse's layout, stack by stack
  std::vector<int8_t> l1_grouped_, l2_grouped_;
  int l1_int16_groups_ = 1, l2_int16_groups_ = 1;  // kernels::int16_groups_for over every stack
  std::vector<int32_t> l1_bias_, l2_bias_;
  std::vector<int32_t> out_bias_;  // per stack
  int32_t skip_margin_ = 0, skip_gain_ = 0;
  std::vector<int16_t> stack_;  // [depth][perspective][H]
  std::vector<uint8_t> states_;  // [depth][kRows][kStateStride], beside stack_
  // The move that led to each ply, and who made it.
  struct Ply {
    Move move;
    Player mover = kFirst;
  };
  std::vector<Ply> plies_;  // [depth], beside stack_
  int depth_ = 0;
  int computed_depth_ = 0;  // plies 0..computed_depth_ of the current line have their accumulators
  uint64_t node_ = 0;                  // changes with every set_root, push and pop
  uint64_t cached_node_ = ~uint64_t(0);  // the node cached_net_ belongs to
  int64_t cached_net_ = 0;
  std::vector<uint8_t> input_, hidden1_, hidden2_;
};

// The network's float arithmetic, from scratch: the output in cells (the
// evaluation is 16 times it). For parity tests and training checks.
float reference_output(const Network& network, const Position& pos, const LeafMoves& moves);

}  // namespace mushroom::nnue
