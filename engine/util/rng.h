// Small, fast, seedable random number generator (xoshiro256** seeded by
// splitmix64). Every random choice in the project goes through it so that
// runs are reproducible from one integer seed.
#pragma once
#include <cmath>
#include <cstdint>

namespace mushroom {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }

  void reseed(uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound > 0, without modulo bias
  // (Lemire's multiply-shift with rejection).
  uint32_t uniform(uint32_t bound) {
    uint64_t product = uint64_t(uint32_t(next_u64() >> 32)) * bound;
    uint32_t low = uint32_t(product);
    if (low < bound) {
      const uint32_t threshold = uint32_t(-bound) % bound;
      while (low < threshold) {
        product = uint64_t(uint32_t(next_u64() >> 32)) * bound;
        low = uint32_t(product);
      }
    }
    return uint32_t(product >> 32);
  }

  // Uniform double in [0, 1).
  double uniform_double() { return double(next_u64() >> 11) * 0x1.0p-53; }

  // Standard normal (Box-Muller; one of the pair is discarded).
  double normal() {
    const double u1 = 1.0 - uniform_double(), u2 = uniform_double();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace mushroom
