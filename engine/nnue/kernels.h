// The learned evaluation's arithmetic kernels (nnue/evaluator.h
// runs them): the accumulator update, crelu and the int8 dense layers, each
// in a scalar version and in AVX2 and AVX-512 versions chosen at run time
// from what the CPU has, as the move generator chooses its kernel. Every
// version gives exactly the scalar version's integers: the accumulators add
// and subtract int16 (or int8) rows with wrap-around, which no order of the
// sums changes, and the dense sums are exact int32.
//
// Kept apart from the evaluator (which knows the features and the model),
// as Stockfish keeps its NNUE kernels apart from its search.
#pragma once
#include <cstdint>

namespace mushroom::nnue::kernels {

enum class Isa : uint8_t { kScalar, kAvx2, kAvx512 };

// The widest kernels this CPU runs (kScalar off x86).
Isa best_isa();
// The kernels the evaluation runs unless told otherwise: AVX2 where the CPU
// has it, AVX-512 included. On the one AVX-512 CPU measured (a Xeon of the
// H100 box, docs/history/issue-58-learned-evaluation-speed.md "The learned evaluation's speed"), the AVX-512
// kernels searched 5-11% fewer nodes a second than the AVX2 ones with the
// shipped 64-unit model, so they run only when asked for.
Isa default_isa();
const char* isa_name(Isa isa);

// to[0..n) = from - the rows named in `removed` + those named in `added`,
// each row n values at rows + index * n. n is a multiple of 16; from and to
// may be the same array. The rows are int16, or int8 ("compact rows": half
// the memory a move reads, for a model whose weights all fit; each value is
// widened to the same int16, so the sums are exactly the int16 rows').
void update(Isa isa, const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed, int n_removed,
            const int* added, int n_added);
void update(Isa isa, const int16_t* from, int16_t* to, const int8_t* rows, int n, const int* removed, int n_removed,
            const int* added, int n_added);

// Both perspectives' accumulators at once, as a move changes them: from
// and to hold [2][n] (the first view's n values, then the second's). A
// row that both views remove (a feature whose index is the same in both:
// a cell or triple nobody owns yet) is read once for the two. Gives
// exactly update() on each view with its removed_both, removed and added
// rows.
struct PairChanges {
  const int* removed_both = nullptr;
  int n_removed_both = 0;
  const int* removed[2] = {nullptr, nullptr};
  int n_removed[2] = {0, 0};
  const int* added[2] = {nullptr, nullptr};
  int n_added[2] = {0, 0};
};
void update_pair(Isa isa, const int16_t* from, int16_t* to, const int16_t* rows, int n, const PairChanges& changes);
void update_pair(Isa isa, const int16_t* from, int16_t* to, const int8_t* rows, int n, const PairChanges& changes);

// out[i] = min(max(acc[i], 0), 127) for i < n (any n).
void crelu(Isa isa, const int16_t* acc, uint8_t* out, int n);

// out[j] = x . w[j] for n_out int8 rows of `stride` bytes; stride is a
// multiple of 32 and every x is at most 127, so no pairwise sum saturates.
void dense(Isa isa, const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out);

// A dense layer reading only its groups of four inputs that are not all
// zero: out[j] = sum over i of x[i] * w(i, j), for n_inputs (a multiple of
// 32) and n_out (a multiple of 8, at most 64) outputs, with the weights laid
// out by groups of four inputs, w_grouped[(i / 4) * n_out * 4 + j * 4 + i % 4]
// (chunked_dense_weights).
//
// int16_groups (1..kMaxInt16Groups): the SIMD versions add the products of
// up to this many groups in int16 before widening to int32, which halves
// the multiplies; int16_groups_for() gives the most a layer's weights allow
// with every sum exact. 1 widens each group (any weights).
constexpr int kMaxInt16Groups = 16;
void dense_sparse(Isa isa, const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out,
                  int int16_groups = 1);

// The most groups (1..kMaxInt16Groups) whose products add up in int16 with
// no overflow for any inputs 0..127: for every output, 127 times the sum of
// its largest per-group |w| sums over that many groups fits int16.
int int16_groups_for(const int8_t* w_grouped, int n_inputs, int n_out);

// A dense layer's int32 sums back to crelu's 0..127 scale: out[j] =
// min(max((bias[j] + sums[j] + 2^(shift-1)) >> shift, 0), 127) for j < n
// (any n; shift 1..30), the shift rounding halves up.
void rescaled_crelu(Isa isa, const int32_t* sums, const int32_t* bias, int n, int shift, uint8_t* out);

// A row-major int8 matrix w[j * stride + i] (n_out rows) in dense_sparse's
// layout, its outputs padded with zero rows to a multiple of 8.
void chunked_dense_weights(const int8_t* w, int stride, int n_out, int8_t* out);
inline int chunked_outputs(int n_out) { return (n_out + 7) / 8 * 8; }

}  // namespace mushroom::nnue::kernels
