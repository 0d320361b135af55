#include "mushroom/movegen.h"

#include <bit>
#include <cstring>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mushroom {
namespace {

constexpr uint32_t kBoardColumns = (1u << kCols) - 1;

// Adds a 32-byte digit row into the band's column sums and returns the mask
// of columns whose band sum is at most 10.
inline uint32_t add_row_and_mask_small(uint8_t* colsum, const uint8_t* row) {
#if defined(__AVX2__)
  __m256i sums = _mm256_add_epi8(_mm256_load_si256(reinterpret_cast<const __m256i*>(colsum)),
                                 _mm256_load_si256(reinterpret_cast<const __m256i*>(row)));
  _mm256_store_si256(reinterpret_cast<__m256i*>(colsum), sums);
  const __m256i small = _mm256_cmpeq_epi8(_mm256_min_epu8(sums, _mm256_set1_epi8(10)), sums);
  return uint32_t(_mm256_movemask_epi8(small)) & kBoardColumns;
#else
  uint32_t mask = 0;
  for (int c = 0; c < kCols; ++c) {
    colsum[c] = uint8_t(colsum[c] + row[c]);
    mask |= uint32_t(colsum[c] <= 10) << c;
  }
  return mask;
#endif
}

// Visits the legal rectangles with emit(r1, c1, r2, c2); stops early when
// emit returns true. Shared by generate_moves and has_any_move.
//
// Pruning, for the band of rows r1..r2 with column sums s[c]:
//  - a move spans whole columns of the band, so every column inside it has
//    s[c] <= 10 ("small"); the move lies inside one run of small columns;
//  - that run must hold a mushroom of row r1 and one of row r2;
//  - s only grows with r2, so once no mushroom of row r1 sits in a small
//    column, no deeper band from this r1 can hold a move.
template <typename Emit>
inline bool for_each_move(const Position& pos, Emit&& emit) {
  if (pos.game_over()) return false;
  for (int r1 = 0; r1 < kRows; ++r1) {
    const uint32_t top = pos.nonzero_mask(r1);
    if (!top) continue;
    alignas(32) uint8_t colsum[32];
    std::memset(colsum, 0, sizeof(colsum));
    uint32_t band_mask = 0;
    for (int r2 = r1; r2 < kRows; ++r2) {
      const uint32_t small = add_row_and_mask_small(colsum, pos.digit_row(r2));
      const uint32_t top_small = top & small;
      if (!top_small) break;
      const uint32_t bottom = pos.nonzero_mask(r2);
      band_mask |= bottom;
      const uint32_t bottom_small = bottom & small;
      if (!bottom_small) continue;

      // The runs of small columns that hold both a top and a bottom mushroom.
      uint32_t viable = 0;
      for (uint32_t runs = small; runs;) {
        const uint32_t run = runs & ~(runs + (runs & -runs));
        runs &= ~run;
        if ((run & top_small) && (run & bottom_small)) viable |= run;
      }
      if (!viable) continue;

      // Prefix sums over the viable non-empty columns, as bits of a bitset
      // (sums are >= 1, so they strictly increase). A window of columns sums
      // to exactly 10 where both v and v + 10 are prefix sums: A & (A >> 10).
      // Between two runs the prefix jumps by 11 so no window crosses a gap.
      // At most 9 small columns of <= 10 and 8 jumps of 11: P <= 178 < 192.
      uint64_t bits[3] = {0, 0, 0};
      uint8_t left_col_at[192], right_col_at[192];
      int prefix = 0;
      uint32_t seen = 0;
      for (uint32_t m = viable & band_mask; m; m &= m - 1) {
        const int c = std::countr_zero(m);
        const uint32_t below = (1u << c) - 1;
        if (seen && ((below & ~seen) & ~small & ~((1u << (31 - std::countl_zero(seen))) - 1))) prefix += 11;
        seen |= 1u << c;
        bits[prefix >> 6] |= 1ull << (prefix & 63);
        left_col_at[prefix] = uint8_t(c);
        prefix += colsum[c];
        right_col_at[prefix] = uint8_t(c);
        bits[prefix >> 6] |= 1ull << (prefix & 63);
      }
      for (int w = 0; w < 3; ++w) {
        uint64_t hits = bits[w] & ((bits[w] >> 10) | (w < 2 ? bits[w + 1] << 54 : 0));
        for (; hits; hits &= hits - 1) {
          const int v = w * 64 + std::countr_zero(hits);
          const int c1 = left_col_at[v], c2 = right_col_at[v + 10];
          const uint32_t span = column_span(c1, c2);
          if ((top & span) && (bottom & span) && emit(r1, c1, r2, c2)) return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

int generate_moves(const Position& pos, MoveList& list) {
  list.size = 0;
  for_each_move(pos, [&](int r1, int c1, int r2, int c2) {
    list.push(Move::rect(r1, c1, r2, c2));
    return false;
  });
  return list.size;
}

bool has_any_move(const Position& pos) {
  return for_each_move(pos, [](int, int, int, int) { return true; });
}

}  // namespace mushroom
