// Bit counting on the GCC/Clang builtins (C++20's <bit> spells these
// std::popcount and friends; the exported bot must also build as C++17).
#pragma once
#include <cstdint>

namespace mushroom {

inline int popcount(uint32_t x) { return __builtin_popcount(x); }
inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
// Index of the lowest set bit; x must not be 0.
inline int lowest_bit(uint32_t x) { return __builtin_ctz(x); }
inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }
// The smallest power of two >= x (x >= 1).
inline uint32_t next_power_of_two(uint32_t x) { return x <= 1 ? 1u : 1u << (32 - __builtin_clz(x - 1)); }

}  // namespace mushroom
