#include "mushroom/movegen.h"

#include "util/bits.h"
#include <algorithm>
#include <cstring>
#include <immintrin.h>

namespace mushroom {
namespace {

constexpr uint32_t kBoardColumns = (1u << kCols) - 1;

#define MUSHROOM_INLINE inline __attribute__((always_inline))
#define MUSHROOM_AVX2 __attribute__((target("avx2")))
#define MUSHROOM_AVX512 __attribute__((target("avx2,avx512f,avx512bw")))
// The band methods are inlined into the shared scan (a template without a
// target attribute). GCC allows that only when the whole translation unit is
// built for the instruction set (e.g. -march=native on an AVX2 machine);
// otherwise they stay ordinary calls, slower but correct, so the file also
// builds with plain -O2 (the exported bot, export/).
#if defined(__AVX2__)
#define MUSHROOM_AVX2_INLINE MUSHROOM_INLINE
#else
#define MUSHROOM_AVX2_INLINE
#endif
#if defined(__AVX512BW__) && defined(__AVX512F__)
#define MUSHROOM_AVX512_INLINE MUSHROOM_INLINE
#else
#define MUSHROOM_AVX512_INLINE
#endif

// Every kernel is a "band": it accumulates digit rows into column sums and
// answers, for the current band, which columns start a window summing to 10
// (starts) and where such a window ends (end).

struct ScalarBand {
  alignas(32) uint8_t sums[32];
  int8_t end_of[kCols];

  MUSHROOM_INLINE void reset() { std::memset(sums, 0, sizeof(sums)); }
  MUSHROOM_INLINE uint32_t add_row(const uint8_t* row) {
    uint32_t small = 0;
    for (int c = 0; c < kCols; ++c) {
      sums[c] = uint8_t(sums[c] + row[c]);
      small |= uint32_t(sums[c] <= 10) << c;
    }
    return small;
  }
  // Two-pointer sweep over the non-empty columns of each run of small
  // columns that holds both a top and a bottom mushroom.
  MUSHROOM_INLINE uint32_t starts(uint32_t nonempty_small, uint32_t small, uint32_t top_small,
                                  uint32_t bottom_small) {
    uint32_t found = 0;
    for (uint32_t runs = small; runs;) {
      const uint32_t run = runs & ~(runs + (runs & -runs));
      runs &= ~run;
      if (!(run & top_small) || !(run & bottom_small)) continue;
      int8_t cols[kCols];
      int k = 0;
      for (uint32_t m = run & nonempty_small; m; m &= m - 1) cols[k++] = int8_t(lowest_bit(m));
      int j = 0, sum = 0;
      for (int i = 0; i < k; ++i) {
        while (j < k && sum + sums[cols[j]] <= 10) sum += sums[cols[j++]];
        if (sum == 10) {
          found |= 1u << cols[i];
          end_of[cols[i]] = cols[j - 1];
        }
        sum -= sums[cols[i]];
      }
    }
    return found;
  }
  MUSHROOM_INLINE int end(int c1) const { return end_of[c1]; }
};

// AVX2: column sums in one register; prefix sums by log-step shifts; the
// membership test P[c1] + 10 in {P} by 17 broadcast compares.
struct Avx2Band {
  __m256i sums, prefix, target;

  MUSHROOM_AVX2 MUSHROOM_AVX2_INLINE void reset() { sums = _mm256_setzero_si256(); }
  MUSHROOM_AVX2 MUSHROOM_AVX2_INLINE uint32_t add_row(const uint8_t* row) {
    sums = _mm256_add_epi8(sums, _mm256_load_si256(reinterpret_cast<const __m256i*>(row)));
    const __m256i capped = _mm256_min_epu8(sums, _mm256_set1_epi8(10));
    return uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(capped, sums))) & kBoardColumns;
  }
  // Inclusive prefix sums E of the sums capped at 11 (a column over 10 can
  // be in no window, and the cap keeps E <= 17 * 11 in a byte), and the
  // targets E - s + 10 = P[c] + 10.
  MUSHROOM_AVX2 MUSHROOM_AVX2_INLINE void prefix_sums() {
    const __m256i capped = _mm256_min_epu8(sums, _mm256_set1_epi8(11));
    __m256i e = capped;
    e = _mm256_add_epi8(e, _mm256_slli_si256(e, 1));
    e = _mm256_add_epi8(e, _mm256_slli_si256(e, 2));
    e = _mm256_add_epi8(e, _mm256_slli_si256(e, 4));
    e = _mm256_add_epi8(e, _mm256_slli_si256(e, 8));
    // Carry the low 128-bit lane's total (byte 15) into the high lane.
    const __m256i low_to_high = _mm256_permute2x128_si256(e, e, 0x08);
    prefix = _mm256_add_epi8(e, _mm256_shuffle_epi8(low_to_high, _mm256_set1_epi8(15)));
    target = _mm256_add_epi8(_mm256_sub_epi8(prefix, capped), _mm256_set1_epi8(10));
  }
  MUSHROOM_AVX2 MUSHROOM_AVX2_INLINE uint32_t starts(uint32_t nonempty_small, uint32_t, uint32_t, uint32_t) {
    prefix_sums();
    alignas(32) uint8_t e[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(e), prefix);
    __m256i any = _mm256_setzero_si256();
    for (int c = 0; c < kCols; ++c) any = _mm256_or_si256(any, _mm256_cmpeq_epi8(target, _mm256_set1_epi8(char(e[c]))));
    return uint32_t(_mm256_movemask_epi8(any)) & nonempty_small;
  }
  // The first column whose prefix reaches the target is non-empty.
  MUSHROOM_AVX2 MUSHROOM_AVX2_INLINE int end(int c1) const {
    alignas(32) uint8_t t[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(t), target);
    return lowest_bit(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(prefix, _mm256_set1_epi8(char(t[c1]))))));
  }
};

// AVX-512BW: as AVX2, but the membership test runs four columns per compare:
// the targets of columns 0..15 sit in each 128-bit lane, and a byte shuffle
// spreads four different prefix values over the four lanes.
struct Avx512Band : Avx2Band {
  static inline __m512i pick[4];
  static void init_pick() {
    for (int g = 0; g < 4; ++g) {
      alignas(64) uint8_t index[64];
      for (int lane = 0; lane < 4; ++lane)
        for (int b = 0; b < 16; ++b) index[lane * 16 + b] = uint8_t(g * 4 + lane);
      std::memcpy(&pick[g], index, sizeof(index));
    }
  }
  MUSHROOM_AVX512 MUSHROOM_AVX512_INLINE uint32_t starts(uint32_t nonempty_small, uint32_t, uint32_t, uint32_t) {
    prefix_sums();
    const __m512i targets = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm256_castsi256_si128(target));
    const __m512i prefixes = _mm512_maskz_broadcast_i32x4(0xFFFF, _mm256_castsi256_si128(prefix));
    __mmask64 hit = 0;
    for (int g = 0; g < 4; ++g) hit |= _mm512_cmpeq_epi8_mask(targets, _mm512_shuffle_epi8(prefixes, pick[g]));
    // Column 16 as a right side: its prefix, broadcast.
    const int last_prefix = _mm256_extract_epi8(prefix, 16);
    hit |= _mm512_cmpeq_epi8_mask(targets, _mm512_set1_epi8(char(last_prefix)));
    uint32_t found = uint32_t((hit | hit >> 16 | hit >> 32 | hit >> 48) & 0xFFFF);
    // Column 16 as a left side: only the window 16..16.
    found |= uint32_t(last_prefix - _mm256_extract_epi8(prefix, 15) == 10) << 16;
    return found & nonempty_small;
  }
};

// The shared scan over bands; emit(r1, c1, r2, c2) returns true to stop.
template <typename Band, typename Emit>
MUSHROOM_INLINE bool scan_bands(const Position& pos, Emit&& emit) {
  if (pos.game_over()) return false;
  Band band;
  for (int r1 = 0; r1 < kRows; ++r1) {
    const uint32_t top = pos.nonzero_mask(r1);
    if (!top) continue;
    band.reset();
    uint32_t nonempty = 0;
    for (int r2 = r1; r2 < kRows; ++r2) {
      const uint32_t small = band.add_row(pos.digit_row(r2));
      const uint32_t top_small = top & small;
      if (!top_small) break;  // deeper bands only grow
      const uint32_t bottom = pos.nonzero_mask(r2);
      nonempty |= bottom;
      const uint32_t bottom_small = bottom & small;
      if (!bottom_small) continue;
      for (uint32_t starts = band.starts(nonempty & small, small, top_small, bottom_small); starts;
           starts &= starts - 1) {
        const int c1 = lowest_bit(starts);
        const int c2 = band.end(c1);
        const uint32_t span = column_span(c1, c2);
        if ((top & span) && (bottom & span) && emit(r1, c1, r2, c2)) return true;
      }
    }
  }
  return false;
}

struct Collect {
  MoveList& list;
  MUSHROOM_INLINE bool operator()(int r1, int c1, int r2, int c2) const {
    list.push(Move::rect(r1, c1, r2, c2));
    return false;
  }
};
// Keeps the largest margin gain. A rectangle gains at most twice its area
// (every cell stolen), so smaller ones are not counted.
struct BestGain {
  const Position& pos;
  int best = 0, count = 0;
  MUSHROOM_INLINE bool operator()(int r1, int c1, int r2, int c2) {
    ++count;
    if (2 * (r2 - r1 + 1) * (c2 - c1 + 1) <= best) return false;
    best = std::max(best, rectangle_take(pos, r1, c1, r2, c2).gain);
    return false;
  }
};
struct StopAtFirst {
  MUSHROOM_INLINE bool operator()(int, int, int, int) const { return true; }
};

int generate_scalar(const Position& pos, MoveList& list) {
  list.size = 0;
  scan_bands<ScalarBand>(pos, Collect{list});
  return list.size;
}
MUSHROOM_AVX2 int generate_avx2(const Position& pos, MoveList& list) {
  list.size = 0;
  scan_bands<Avx2Band>(pos, Collect{list});
  return list.size;
}
MUSHROOM_AVX512 int generate_avx512(const Position& pos, MoveList& list) {
  list.size = 0;
  scan_bands<Avx512Band>(pos, Collect{list});
  return list.size;
}
template <typename Band>
MUSHROOM_INLINE int best_gain_in_bands(const Position& pos, int* count) {
  BestGain best{pos};
  scan_bands<Band>(pos, best);
  if (count) *count = best.count;
  return best.best;
}
int best_gain_scalar(const Position& pos, int* count) { return best_gain_in_bands<ScalarBand>(pos, count); }
MUSHROOM_AVX2 int best_gain_avx2(const Position& pos, int* count) { return best_gain_in_bands<Avx2Band>(pos, count); }
MUSHROOM_AVX512 int best_gain_avx512(const Position& pos, int* count) {
  return best_gain_in_bands<Avx512Band>(pos, count);
}
bool any_scalar(const Position& pos) { return scan_bands<ScalarBand>(pos, StopAtFirst{}); }
MUSHROOM_AVX2 bool any_avx2(const Position& pos) { return scan_bands<Avx2Band>(pos, StopAtFirst{}); }
MUSHROOM_AVX512 bool any_avx512(const Position& pos) { return scan_bands<Avx512Band>(pos, StopAtFirst{}); }

struct Dispatch {
  int (*generate)(const Position&, MoveList&);
  bool (*any)(const Position&);
  int (*best_gain)(const Position&, int*);
};

const Dispatch& dispatch() {
  static const Dispatch chosen = [] {
    switch (best_kernel()) {
      case MovegenKernel::kAvx512: return Dispatch{generate_avx512, any_avx512, best_gain_avx512};
      case MovegenKernel::kAvx2: return Dispatch{generate_avx2, any_avx2, best_gain_avx2};
      default: return Dispatch{generate_scalar, any_scalar, best_gain_scalar};
    }
  }();
  return chosen;
}

}  // namespace

bool kernel_supported(MovegenKernel kernel) {
  switch (kernel) {
    case MovegenKernel::kScalar: return true;
    case MovegenKernel::kAvx2: return __builtin_cpu_supports("avx2");
    case MovegenKernel::kAvx512: return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f");
  }
  return false;
}

MovegenKernel best_kernel() {
  static const MovegenKernel best = [] {
    Avx512Band::init_pick();
    if (kernel_supported(MovegenKernel::kAvx512)) return MovegenKernel::kAvx512;
    if (kernel_supported(MovegenKernel::kAvx2)) return MovegenKernel::kAvx2;
    return MovegenKernel::kScalar;
  }();
  return best;
}

const char* kernel_name(MovegenKernel kernel) {
  switch (kernel) {
    case MovegenKernel::kScalar: return "scalar";
    case MovegenKernel::kAvx2: return "avx2";
    case MovegenKernel::kAvx512: return "avx512bw";
  }
  return "?";
}

int generate_moves_with(MovegenKernel kernel, const Position& pos, MoveList& list) {
  best_kernel();  // initializes the AVX-512 shuffle tables
  switch (kernel) {
    case MovegenKernel::kAvx512: return generate_avx512(pos, list);
    case MovegenKernel::kAvx2: return generate_avx2(pos, list);
    default: return generate_scalar(pos, list);
  }
}

int best_rectangle_gain_with(MovegenKernel kernel, const Position& pos, int* count) {
  best_kernel();
  switch (kernel) {
    case MovegenKernel::kAvx512: return best_gain_avx512(pos, count);
    case MovegenKernel::kAvx2: return best_gain_avx2(pos, count);
    default: return best_gain_scalar(pos, count);
  }
}

int generate_moves(const Position& pos, MoveList& list) { return dispatch().generate(pos, list); }

int best_rectangle_gain(const Position& pos, int* count) { return dispatch().best_gain(pos, count); }

bool has_any_move(const Position& pos) { return dispatch().any(pos); }

}  // namespace mushroom
