// FNV-1a over bytes, 64 bits: file checksums and short stable names, not
// security. Plain C++17: the exported bot embeds it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace mushroom {

inline uint64_t fnv1a64(const void* data, size_t n) {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

// 16 lowercase hex digits: how hashes are shown and recorded.
inline std::string hex64(uint64_t x) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(x));
  return text;
}

inline std::string fnv1a64_hex(const void* data, size_t n) { return hex64(fnv1a64(data, n)); }

}  // namespace mushroom
