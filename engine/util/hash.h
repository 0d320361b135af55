// FNV-1a over bytes, 64 bits: file checksums and short stable names, not
// security. Plain C++17: the exported bot embeds it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mushroom {

inline uint64_t fnv1a64(const void* data, size_t n) {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace mushroom
