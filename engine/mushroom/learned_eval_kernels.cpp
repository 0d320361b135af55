#include "mushroom/learned_eval_kernels.h"

#include <algorithm>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MUSHROOM_KERNELS_X86 1
#define MUSHROOM_AVX2 __attribute__((target("avx2")))
#define MUSHROOM_AVX512 __attribute__((target("avx2,avx512f,avx512bw")))
#endif

namespace mushroom::eval_kernels {

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

void update_scalar(const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed, int n_removed,
                   const int* added, int n_added) {
  if (to != from) std::copy(from, from + n, to);
  for (int k = 0; k < n_removed; ++k) {
    const int16_t* row = rows + size_t(removed[k]) * size_t(n);
    for (int h = 0; h < n; ++h) to[h] = int16_t(to[h] - row[h]);
  }
  for (int k = 0; k < n_added; ++k) {
    const int16_t* row = rows + size_t(added[k]) * size_t(n);
    for (int h = 0; h < n; ++h) to[h] = int16_t(to[h] + row[h]);
  }
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

// R registers (16R units) of the accumulator stay in registers while every
// changed row passes once: each accumulator value is loaded and stored once,
// and the row lists are read once per tile.
template <int R>
MUSHROOM_AVX2 void update_tile_avx2(const int16_t* from, int16_t* to, const int16_t* rows, size_t n, const int* removed,
                                    int n_removed, const int* added, int n_added) {
  __m256i v[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[r] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + 16 * r));
  for (int k = 0; k < n_removed; ++k) {
    const int16_t* row = rows + size_t(removed[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
      v[r] = _mm256_sub_epi16(v[r], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 16 * r)));
  }
  for (int k = 0; k < n_added; ++k) {
    const int16_t* row = rows + size_t(added[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
      v[r] = _mm256_add_epi16(v[r], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 16 * r)));
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 16 * r), v[r]);
}

MUSHROOM_AVX2 void update_avx2(const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed,
                               int n_removed, const int* added, int n_added) {
  // Tiles of 8 registers (128 units), then what is left, 16 units a register.
  for (int t = 0; t < n; t += 128)
    with_registers(std::min(8, (n - t) / 16), [&](auto registers) {
      update_tile_avx2<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), removed, n_removed, added, n_added);
    });
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

// R registers of 8 int32 sums (8R outputs); each group of four inputs that
// is not all zero is broadcast and multiplied with its 8R x 4 weights.
template <int R>
MUSHROOM_AVX2 void dense_sparse_avx2_tile(const uint8_t* x, int n_inputs, const int8_t* w_grouped, int32_t* out) {
  __m256i sum[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) sum[r] = _mm256_setzero_si256();
  const __m256i ones = _mm256_set1_epi16(1);
  for (int i = 0; i < n_inputs; i += 32) {
    // One bit per group of four inputs that has a non-zero byte.
    const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    uint32_t live = ~uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(xv, _mm256_setzero_si256())))) & 0xffu;
    while (live) {
      const int g = i / 4 + __builtin_ctz(live);
      live &= live - 1;
      int32_t four;
      __builtin_memcpy(&four, x + 4 * g, 4);
      const __m256i xb = _mm256_set1_epi32(four);
      const int8_t* wg = w_grouped + size_t(g) * (8 * R) * 4;
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wg + 32 * r));
        sum[r] = _mm256_add_epi32(sum[r], _mm256_madd_epi16(_mm256_maddubs_epi16(xb, wv), ones));
      }
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * r), sum[r]);
}

MUSHROOM_AVX2 void dense_sparse_avx2(const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out) {
  with_registers(n_out / 8, [&](auto registers) { dense_sparse_avx2_tile<decltype(registers)::value>(x, n_inputs, w_grouped, out); });
}

// ---- AVX-512 (F and BW): 32 int16 or 64 int8 a register ----

template <int R>
MUSHROOM_AVX512 void update_tile_avx512(const int16_t* from, int16_t* to, const int16_t* rows, size_t n,
                                        const int* removed, int n_removed, const int* added, int n_added) {
  __m512i v[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) v[r] = _mm512_loadu_si512(from + 32 * r);
  for (int k = 0; k < n_removed; ++k) {
    const int16_t* row = rows + size_t(removed[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm512_sub_epi16(v[r], _mm512_loadu_si512(row + 32 * r));
  }
  for (int k = 0; k < n_added; ++k) {
    const int16_t* row = rows + size_t(added[k]) * n;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) v[r] = _mm512_add_epi16(v[r], _mm512_loadu_si512(row + 32 * r));
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm512_storeu_si512(to + 32 * r, v[r]);
}

MUSHROOM_AVX512 void update_avx512(const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed,
                                   int n_removed, const int* added, int n_added) {
  const int whole = n / 32 * 32;  // units in full 512-bit registers; n % 32 is 0 or 16
  for (int t = 0; t < whole; t += 256)
    with_registers(std::min(8, (whole - t) / 32), [&](auto registers) {
      update_tile_avx512<decltype(registers)::value>(from + t, to + t, rows + t, size_t(n), removed, n_removed, added, n_added);
    });
  if (whole < n)
    update_tile_avx2<1>(from + whole, to + whole, rows + whole, size_t(n), removed, n_removed, added, n_added);
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

void update(Isa isa, const int16_t* from, int16_t* to, const int16_t* rows, int n, const int* removed, int n_removed,
            const int* added, int n_added) {
#ifdef MUSHROOM_KERNELS_X86
  if (isa == Isa::kAvx512) return update_avx512(from, to, rows, n, removed, n_removed, added, n_added);
  if (isa == Isa::kAvx2) return update_avx2(from, to, rows, n, removed, n_removed, added, n_added);
#endif
  (void)isa;
  update_scalar(from, to, rows, n, removed, n_removed, added, n_added);
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

void dense_sparse(Isa isa, const uint8_t* x, int n_inputs, const int8_t* w_grouped, int n_out, int32_t* out) {
#ifdef MUSHROOM_KERNELS_X86
  // The AVX2 version serves AVX-512 too: with 16 outputs, one 512-bit
  // register would hold them all and gain nothing.
  if (isa != Isa::kScalar) return dense_sparse_avx2(x, n_inputs, w_grouped, n_out, out);
#endif
  (void)isa;
  dense_sparse_scalar(x, n_inputs, w_grouped, n_out, out);
}

void chunked_dense_weights(const int8_t* w, int stride, int n_out, int8_t* out) {
  const int outs = chunked_outputs(n_out);
  for (int g = 0; g < stride / 4; ++g)
    for (int j = 0; j < outs; ++j)
      for (int q = 0; q < 4; ++q)
        out[(size_t(g) * size_t(outs) + size_t(j)) * 4 + size_t(q)] = j < n_out ? w[size_t(j) * size_t(stride) + size_t(4 * g + q)] : int8_t(0);
}

}  // namespace mushroom::eval_kernels
