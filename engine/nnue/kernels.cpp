#include "nnue/kernels.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MUSHROOM_KERNELS_X86 1
#define MUSHROOM_AVX2 __attribute__((target("avx2")))
#define MUSHROOM_AVX512 __attribute__((target("avx2,avx512f,avx512bw")))
#endif

namespace mushroom::nnue::kernels {

namespace {

// Calls f(std::integral_constant<int, R>()) with R = registers (1..8): the
// SIMD tiles take their register count as a template argument, so that
// their registers stay registers.
template <typename F>
inline void with_registers(int registers, F&& f) {
  switch (registers) {
    case 8: return f(std::integral_constant<int, 8>());
    case 7: return f(std::integral_constant<int, 7>());
    case 6: return f(std::integral_constant<int, 6>());
    case 5: return f(std::integral_constant<int, 5>());
    case 4: return f(std::integral_constant<int, 4>());
    case 3: return f(std::integral_constant<int, 3>());
    case 2: return f(std::integral_constant<int, 2>());
    default: return f(std::integral_constant<int, 1>());
  }
}

// ---- scalar: the definition every other version must match ----

template <typename Row>
void update_scalar(const int16_t* from, int16_t* to, const Row* rows, int n, const int* removed, int n_removed,
                   const int* added, int n_added) {
  if (to != from) std::copy(from, from + n, to);
  for (int k = 0; k < n_removed; ++k) {
    const Row* row = rows + size_t(removed[k]) * size_t(n);
    for (int h = 0; h < n; ++h) to[h] = int16_t(to[h] - row[h]);
  }
  for (int k = 0; k < n_added; ++k) {
    const Row* row = rows + size_t(added[k]) * size_t(n);
    for (int h = 0; h < n; ++h) to[h] = int16_t(to[h] + row[h]);
  }
}

template <typename Row>
void update_pair_scalar(const int16_t* from, int16_t* to, const Row* rows, int n, const PairChanges& c) {
  for (int p = 0; p < 2; ++p) {
    int16_t* view = to + size_t(p) * size_t(n);
    update_scalar(from + size_t(p) * size_t(n), view, rows, n, c.removed_both, c.n_removed_both, c.added[p], c.n_added[p]);
    update_scalar(view, view, rows, n, c.removed[p], c.n_removed[p], static_cast<const int*>(nullptr), 0);
  }
}

void rescaled_crelu_scalar(const int32_t* sums, const int32_t* bias, int n, int shift, uint8_t* out) {
  const int32_t half = int32_t(1) << (shift - 1);
  for (int j = 0; j < n; ++j) out[j] = uint8_t(std::clamp((bias[j] + sums[j] + half) >> shift, 0, 127));
}

void crelu_scalar(const int16_t* acc, uint8_t* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = uint8_t(std::clamp<int>(acc[i], 0, 127));
}

int32_t dot_scalar(const uint8_t* x, const int8_t* w, int n) {
  int32_t s = 0;
  for (int i = 0; i < n; ++i) s += int32_t(x[i]) * int32_t(w[i]);
  return s;
}

void dense_scalar(const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
  for (int j = 0; j < n_out; ++j) out[j] = dot_scalar(x, w + size_t(j) * size_t(stride), stride);
}

void dense_sparse_scalar(const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out) {
  std::fill(out, out + n_out, 0);
  for (int g = 0; g < n_inputs / 4; ++g) {
    const uint8_t* xg = x + 4 * g;
    if (!(xg[0] | xg[1] | xg[2] | xg[3])) continue;
    const int8_t* wg = w_grouped + size_t(g) * size_t(n_out) * 4;
    for (int j = 0; j < n_out; ++j)
      for (int q = 0; q < 4; ++q) out[j] += int32_t(xg[q]) * int32_t(wg[4 * j + q]);
  }
}

#ifdef MUSHROOM_KERNELS_X86

// ---- AVX2: 16 int16 or 32 int8 a register ----

// 16 int16 units from p: int16 values as they are, int8 ones (a compact
// row) widened, which gives each the same number.
MUSHROOM_AVX2 inline __m256i load16_avx2(const int16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
MUSHROOM_AVX2 inline __m256i load16_avx2(const int8_t* p) {
  return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// R registers (16R units) of the accumulator stay in registers while every
// changed row passes once: each accumulator value is loaded and stored once,
// and the row lists are read once per tile.
template <int R, typename Row>
MUSHROOM_AVX2 void update_tile_avx2(const int16_t* from, int16_t* to, const Row* rows, size_t n, const int* removed,
                                    int n_removed, const int* added, int n_added) {
  __m256i v[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[r] = load16_avx2(from + 16 * r);
  for (int k = 0; k < n_removed; ++k) {
    const Row* row = rows + size_t(removed[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm256_sub_epi16(v[r], load16_avx2(row + 16 * r));
  }
  for (int k = 0; k < n_added; ++k) {
    const Row* row = rows + size_t(added[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm256_add_epi16(v[r], load16_avx2(row + 16 * r));
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 16 * r), v[r]);
}

template <typename Row>
MUSHROOM_AVX2 void update_avx2(const int16_t* from, int16_t* to, const Row* rows, int n, const int* removed,
                               int n_removed, const int* added, int n_added) {
  // Tiles of 8 registers (128 units), then what is left, 16 units a register.
  for (int t = 0; t < n; t += 128)
    with_registers(std::min(8, (n - t) / 16), [&](auto registers) {
      update_tile_avx2<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), removed, n_removed, added, n_added);
    });
}

// Both views' tiles of R registers (16R units) each, in 2R registers: a
// row both views remove is loaded once and taken from both.
template <int R, typename Row>
MUSHROOM_AVX2 void update_pair_tile_avx2(const int16_t* from, int16_t* to, const Row* rows, size_t n,
                                         const PairChanges& c) {
  __m256i v[2][R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[0][r] = load16_avx2(from + 16 * r), v[1][r] = load16_avx2(from + n + 16 * r);
  for (int k = 0; k < c.n_removed_both; ++k) {
    const Row* row = rows + size_t(c.removed_both[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256i x = load16_avx2(row + 16 * r);
      v[0][r] = _mm256_sub_epi16(v[0][r], x);
      v[1][r] = _mm256_sub_epi16(v[1][r], x);
    }
  }
#pragma GCC unroll 2
  for (int p = 0; p < 2; ++p) {
    for (int k = 0; k < c.n_removed[p]; ++k) {
      const Row* row = rows + size_t(c.removed[p][k]) * n;
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) v[p][r] = _mm256_sub_epi16(v[p][r], load16_avx2(row + 16 * r));
    }
    for (int k = 0; k < c.n_added[p]; ++k) {
      const Row* row = rows + size_t(c.added[p][k]) * n;
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) v[p][r] = _mm256_add_epi16(v[p][r], load16_avx2(row + 16 * r));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 16 * r), v[0][r]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + n + 16 * r), v[1][r]);
  }
}

template <typename Row>
MUSHROOM_AVX2 void update_pair_avx2(const int16_t* from, int16_t* to, const Row* rows, int n, const PairChanges& c) {
  // Tiles of 4 registers a view (64 units): 8 accumulator registers and a
  // row's, of the 16.
  for (int t = 0; t < n; t += 64)
    with_registers(std::min(4, (n - t) / 16), [&](auto registers) {
      update_pair_tile_avx2<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), c);
    });
}

// (sums + bias + half) >> shift, eight lanes.
MUSHROOM_AVX2 inline __m256i rescaled8_avx2(const int32_t* sums, const int32_t* bias, __m256i half, __m128i count) {
  const __m256i v = _mm256_add_epi32(_mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums)),
                                                      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias))),
                                     half);
  return _mm256_sra_epi32(v, count);
}

MUSHROOM_AVX2 void rescaled_crelu_avx2(const int32_t* sums, const int32_t* bias, int n, int shift, uint8_t* out) {
  const __m256i half = _mm256_set1_epi32(int32_t(1) << (shift - 1));
  const __m128i count = _mm_cvtsi32_si128(shift);
  int j = 0;
  for (; j + 16 <= n; j += 16) {
    // Saturating packs clamp to 0..255, so clamp to 127 first: int32 -> int16 -> uint8.
    const __m256i lo = _mm256_min_epi32(rescaled8_avx2(sums + j, bias + j, half, count), _mm256_set1_epi32(127));
    const __m256i hi = _mm256_min_epi32(rescaled8_avx2(sums + j + 8, bias + j + 8, half, count), _mm256_set1_epi32(127));
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8);  // back in order
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                     _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
  }
  rescaled_crelu_scalar(sums + j, bias + j, n - j, shift, out + j);
}

MUSHROOM_AVX2 __m256i clamped16_avx2(const int16_t* p) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), _mm256_set1_epi16(127));
}

MUSHROOM_AVX2 void crelu_avx2(const int16_t* acc, uint8_t* out, int n) {
  int i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = clamped16_avx2(acc + i), b = clamped16_avx2(acc + i + 16);
    // packus works within 128-bit lanes; the permute puts the quarters back in order.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
  }
  crelu_scalar(acc + i, out + i, n - i);
}

MUSHROOM_AVX2 int32_t sum8_avx2(__m256i sum) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return _mm_cvtsi128_si32(s);
}

// 32 products x * w summed pairwise into 8 int32 lanes.
MUSHROOM_AVX2 __m256i madd32_avx2(const uint8_t* x, const int8_t* w) {
  const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
  const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
  return _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), _mm256_set1_epi16(1));
}

// Four rows share one horizontal reduction.
MUSHROOM_AVX2 void dense_avx2(const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
  int j = 0;
  for (; j + 4 <= n_out; j += 4) {
    __m256i sum[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (int i = 0; i < stride; i += 32)
      for (int k = 0; k < 4; ++k)
        sum[k] = _mm256_add_epi32(sum[k], madd32_avx2(x + i, w + size_t(j + k) * size_t(stride) + i));
    // Per 128-bit lane, [row j, j+1, j+2, j+3] partial sums; then the lanes added.
    const __m256i pairs = _mm256_hadd_epi32(_mm256_hadd_epi32(sum[0], sum[1]), _mm256_hadd_epi32(sum[2], sum[3]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                     _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1)));
  }
  for (; j < n_out; ++j) {
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < stride; i += 32) sum = _mm256_add_epi32(sum, madd32_avx2(x + i, w + size_t(j) * size_t(stride) + i));
    out[j] = sum8_avx2(sum);
  }
}

// For each byte value, the positions of its set bits and their count:
// the live groups of 32 inputs are listed from one 8-bit mask.
struct BitPositions {
  alignas(16) uint16_t at[256][8];
  uint8_t count[256];
};
constexpr BitPositions make_bit_positions() {
  BitPositions t{};
  for (int mask = 0; mask < 256; ++mask) {
    int n = 0;
    for (int bit = 0; bit < 8; ++bit)
      if (mask >> bit & 1) t.at[mask][n++] = uint16_t(bit);
    t.count[mask] = uint8_t(n);
  }
  return t;
}
constexpr BitPositions kBitPositions = make_bit_positions();

// R registers of 8 int32 sums (8R outputs); each group of four inputs that
// is not all zero is broadcast and multiplied with its 8R x 4 weights. The
// live groups are listed first, then passed in one loop: a loop per 32
// inputs would mispredict its exit at each.
template <int R>
MUSHROOM_AVX2 void dense_sparse_avx2_tile(const uint8_t* x, int n_inputs, const int8_t* w_grouped, int32_t* out,
                                          int int16_groups) {
  __m256i sum[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) sum[r] = _mm256_setzero_si256();
  const __m256i ones = _mm256_set1_epi16(1);
  constexpr int kBlock = 512;  // inputs listed at a time
  alignas(16) uint16_t live[kBlock / 4 + 8];
  for (int block = 0; block < n_inputs; block += kBlock) {
    const int block_end = std::min(n_inputs, block + kBlock);
    int count = 0;
    for (int i = block; i < block_end; i += 32) {
      // One bit per group of four inputs that has a non-zero byte.
      const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
      const uint32_t mask =
          ~uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(xv, _mm256_setzero_si256())))) & 0xffu;
      const __m128i groups = _mm_add_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(kBitPositions.at[mask])),
                                           _mm_set1_epi16(int16_t(i / 4)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(live + count), groups);
      count += kBitPositions.count[mask];
    }
    // Up to int16_groups groups' products are added in int16 (exact: see
    // int16_groups_for), then widened to the int32 sums at once.
    for (int k0 = 0; k0 < count; k0 += int16_groups) {
      __m256i pairs[R];
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) pairs[r] = _mm256_setzero_si256();
      const int k_end = std::min(count, k0 + int16_groups);
      for (int k = k0; k < k_end; ++k) {
        const int g = live[k];
        int32_t four;
        __builtin_memcpy(&four, x + 4 * g, 4);
        const __m256i xb = _mm256_set1_epi32(four);
        const int8_t* wg = w_grouped + size_t(g) * (8 * R) * 4;
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
          const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wg + 32 * r));
          pairs[r] = _mm256_add_epi16(pairs[r], _mm256_maddubs_epi16(xb, wv));
        }
      }
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) sum[r] = _mm256_add_epi32(sum[r], _mm256_madd_epi16(pairs[r], ones));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * r), sum[r]);
}

MUSHROOM_AVX2 void dense_sparse_avx2(const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out,
                                     int int16_groups) {
  with_registers(n_out / 8, [&](auto registers) {
    dense_sparse_avx2_tile<decltype(registers)::value>(x, n_inputs, w_grouped, out, int16_groups);
  });
}

// ---- AVX-512 (F and BW): 32 int16 or 64 int8 a register ----

// 32 int16 units from p, as load16_avx2.
MUSHROOM_AVX512 inline __m512i load32_avx512(const int16_t* p) { return _mm512_loadu_si512(p); }
MUSHROOM_AVX512 inline __m512i load32_avx512(const int8_t* p) {
  return _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

template <int R, typename Row>
MUSHROOM_AVX512 void update_tile_avx512(const int16_t* from, int16_t* to, const Row* rows, size_t n,
                                        const int* removed, int n_removed, const int* added, int n_added) {
  __m512i v[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[r] = _mm512_loadu_si512(from + 32 * r);
  for (int k = 0; k < n_removed; ++k) {
    const Row* row = rows + size_t(removed[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm512_sub_epi16(v[r], load32_avx512(row + 32 * r));
  }
  for (int k = 0; k < n_added; ++k) {
    const Row* row = rows + size_t(added[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm512_add_epi16(v[r], load32_avx512(row + 32 * r));
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm512_storeu_si512(to + 32 * r, v[r]);
}

template <typename Row>
MUSHROOM_AVX512 void update_avx512(const int16_t* from, int16_t* to, const Row* rows, int n, const int* removed,
                                   int n_removed, const int* added, int n_added) {
  const int whole = n / 32 * 32;  // units in full 512-bit registers; n % 32 is 0 or 16
  for (int t = 0; t < whole; t += 256)
    with_registers(std::min(8, (whole - t) / 32), [&](auto registers) {
      update_tile_avx512<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), removed, n_removed, added, n_added);
    });
  if (whole < n)
    update_tile_avx2<1>(from + whole, to + whole, rows + whole, size_t(n), removed, n_removed, added, n_added);
}

template <int R, typename Row>
MUSHROOM_AVX512 void update_pair_tile_avx512(const int16_t* from, int16_t* to, const Row* rows, size_t n,
                                             const PairChanges& c) {
  __m512i v[2][R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[0][r] = _mm512_loadu_si512(from + 32 * r), v[1][r] = _mm512_loadu_si512(from + n + 32 * r);
  for (int k = 0; k < c.n_removed_both; ++k) {
    const Row* row = rows + size_t(c.removed_both[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512i x = load32_avx512(row + 32 * r);
      v[0][r] = _mm512_sub_epi16(v[0][r], x);
      v[1][r] = _mm512_sub_epi16(v[1][r], x);
    }
  }
#pragma GCC unroll 2
  for (int p = 0; p < 2; ++p) {
    for (int k = 0; k < c.n_removed[p]; ++k) {
      const Row* row = rows + size_t(c.removed[p][k]) * n;
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) v[p][r] = _mm512_sub_epi16(v[p][r], load32_avx512(row + 32 * r));
    }
    for (int k = 0; k < c.n_added[p]; ++k) {
      const Row* row = rows + size_t(c.added[p][k]) * n;
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) v[p][r] = _mm512_add_epi16(v[p][r], load32_avx512(row + 32 * r));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm512_storeu_si512(to + 32 * r, v[0][r]), _mm512_storeu_si512(to + n + 32 * r, v[1][r]);
}

template <typename Row>
MUSHROOM_AVX512 void update_pair_avx512(const int16_t* from, int16_t* to, const Row* rows, int n,
                                        const PairChanges& c) {
  const int whole = n / 32 * 32;  // units in full 512-bit registers; n % 32 is 0 or 16
  for (int t = 0; t < whole; t += 256)
    with_registers(std::min(8, (whole - t) / 32), [&](auto registers) {
      update_pair_tile_avx512<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), c);
    });
  if (whole < n) update_pair_tile_avx2<1>(from + whole, to + whole, rows + whole, size_t(n), c);
}

MUSHROOM_AVX512 void dense_avx512(const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
  const int whole = stride / 64 * 64;  // the rest, 0 or 32 bytes, in a 256-bit register
  const __m512i ones = _mm512_set1_epi16(1);
  for (int j = 0; j < n_out; ++j) {
    const int8_t* row = w + size_t(j) * size_t(stride);
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < whole; i += 64)
      sum = _mm512_add_epi32(
          sum, _mm512_madd_epi16(_mm512_maddubs_epi16(_mm512_loadu_si512(x + i), _mm512_loadu_si512(row + i)), ones));
    // Summed through memory: GCC 12's lane shuffles and extracts of a
    // 512-bit register warn (maybe-uninitialized) under -Wall.
    alignas(64) int32_t lanes[16];
    _mm512_store_si512(lanes, sum);
    int32_t s = 0;
    for (int32_t lane : lanes) s += lane;
    if (whole < stride) s += sum8_avx2(madd32_avx2(x + whole, row + whole));
    out[j] = s;
  }
}

#endif  // MUSHROOM_KERNELS_X86

}  // namespace

Isa best_isa() {
#ifdef MUSHROOM_KERNELS_X86
  static const Isa isa = [] {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return Isa::kAvx512;
    if (__builtin_cpu_supports("avx2")) return Isa::kAvx2;
    return Isa::kScalar;
  }();
  return isa;
#else
  return Isa::kScalar;
#endif
}

Isa default_isa() { return best_isa() == Isa::kScalar ? Isa::kScalar : Isa::kAvx2; }

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    default: return "scalar";
  }
}

namespace {
template <typename Row>
void update_with(Isa isa, const int16_t* from, int16_t* to, const Row* rows, int n, const int* removed, int n_removed,
                 const int* added, int n_added) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa == Isa::kAvx512) return update_avx512(from, to, rows, n, removed, n_removed, added, n_added);
  if (isa == Isa::kAvx2) return update_avx2(from, to, rows, n, removed, n_removed, added, n_added);
#endif
  (void)isa;
  update_scalar(from, to, rows, n, removed, n_removed, added, n_added);
}

template <typename Row>
void update_pair_with(Isa isa, const int16_t* from, int16_t* to, const Row* rows, int n, const PairChanges& changes) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa == Isa::kAvx512) return update_pair_avx512(from, to, rows, n, changes);
  if (isa == Isa::kAvx2) return update_pair_avx2(from, to, rows, n, changes);
#endif
  (void)isa;
  update_pair_scalar(from, to, rows, n, changes);
}
}  // namespace

void update(Isa isa, const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed, int n_removed,
            const int* added, int n_added) {
  update_with(isa, from, to, rows, n, removed, n_removed, added, n_added);
}

void update(Isa isa, const int16_t* from, int16_t* to, const int8_t* rows, int n, const int* removed, int n_removed,
            const int* added, int n_added) {
  update_with(isa, from, to, rows, n, removed, n_removed, added, n_added);
}

void update_pair(Isa isa, const int16_t* from, int16_t* to, const int16_t* rows, int n, const PairChanges& changes) {
  update_pair_with(isa, from, to, rows, n, changes);
}

void update_pair(Isa isa, const int16_t* from, int16_t* to, const int8_t* rows, int n, const PairChanges& changes) {
  update_pair_with(isa, from, to, rows, n, changes);
}

void rescaled_crelu(Isa isa, const int32_t* sums, const int32_t* bias, int n, int shift, uint8_t* out) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa != Isa::kScalar) return rescaled_crelu_avx2(sums, bias, n, shift, out);  // 16 to 64 values
#endif
  (void)isa;
  rescaled_crelu_scalar(sums, bias, n, shift, out);
}

void crelu(Isa isa, const int16_t* acc, uint8_t* out, int n) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa != Isa::kScalar) return crelu_avx2(acc, out, n);  // a few dozen values: AVX2 is enough
#endif
  (void)isa;
  crelu_scalar(acc, out, n);
}

void dense(Isa isa, const uint8_t* x, const int8_t* w, int stride, int n_out, int32_t* out) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa == Isa::kAvx512) return dense_avx512(x, w, stride, n_out, out);
  if (isa == Isa::kAvx2) return dense_avx2(x, w, stride, n_out, out);
#endif
  (void)isa;
  dense_scalar(x, w, stride, n_out, out);
}

void dense_sparse(Isa isa, const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out,
                  int int16_groups) {
  int16_groups = std::clamp(int16_groups, 1, kMaxInt16Groups);
#ifdef MUSHROOM_KERNELS_X86
  // The AVX2 version serves AVX-512 too: with 16 outputs, one 512-bit
  // register would hold them all and gain nothing.
  if (isa != Isa::kScalar) return dense_sparse_avx2(x, n_inputs, w_grouped, n_out, out, int16_groups);
#endif
  (void)isa;
  dense_sparse_scalar(x, n_inputs, w_grouped, n_out, out);  // int32 throughout
}

int int16_groups_for(const int8_t* w_grouped, int n_inputs, int n_out) {
  // A maddubs pair is at most 2 * 127 * 127 < 32768; a run of k groups'
  // pairs, in any order of live groups, at most 127 times the sum of the k
  // largest per-group |w| sums of each output.
  const int groups = n_inputs / 4;
  int best = kMaxInt16Groups;
  std::vector<int> weight(static_cast<size_t>(groups));
  for (int j = 0; j < n_out; ++j) {
    for (int g = 0; g < groups; ++g) {
      int s = 0;
      for (int q = 0; q < 4; ++q) s += std::abs(int(w_grouped[(size_t(g) * size_t(n_out) + size_t(j)) * 4 + size_t(q)]));
      weight[size_t(g)] = s;
    }
    std::sort(weight.begin(), weight.end(), std::greater<int>());
    int k = 0, total = 0;
    while (k < std::min(best, groups) && 127 * (total + weight[size_t(k)]) <= 32767) total += weight[size_t(k++)];
    if (k < groups) best = std::min(best, std::max(k, 1));
  }
  return best;
}

void chunked_dense_weights(const int8_t* w, int stride, int n_out, int8_t* out) {
  const int outs = chunked_outputs(n_out);
  for (int g = 0; g < stride / 4; ++g)
    for (int j = 0; j < outs; ++j)
      for (int q = 0; q < 4; ++q)
        out[(size_t(g) * size_t(outs) + size_t(j)) * 4 + size_t(q)] = j < n_out ? w[size_t(j) * size_t(stride) + size_t(4 * g + q)] : int8_t(0);
}

}  // namespace mushroom::nnue::kernels
