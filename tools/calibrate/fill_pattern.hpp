#pragma once
// Header-only and C++17 so that the CUDA backend's fill kernel computes the same bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define ACME_CALIBRATE_HD __host__ __device__
#else
#define ACME_CALIBRATE_HD
#endif

namespace acme::tools::calibrate {

/// Word `index` of the deterministic test pattern of `seed` (splitmix64: distinct, non-compressible data,
/// so a file system cannot shortcut zero pages and a checksum detects misplaced bytes).
ACME_CALIBRATE_HD inline std::uint64_t pattern_word(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + index + 1;
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

/// Fills host memory with the pattern (a tail shorter than a word gets the next word's low bytes).
inline void fill_pattern(void* dst, std::size_t bytes, unsigned seed) {
  auto* out = static_cast<unsigned char*>(dst);
  const std::size_t words = bytes / sizeof(std::uint64_t);
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w = pattern_word(seed, i);
    std::memcpy(out + i * sizeof(w), &w, sizeof(w));
  }
  std::uint64_t tail = pattern_word(seed, words);
  std::memcpy(out + words * sizeof(tail), &tail, bytes - words * sizeof(tail));
}

/// A 64-bit checksum of a byte range (four independent multiply-add lanes, then mixed): cheap enough to
/// run inside serialisation, and any moved or changed word changes it.
inline std::uint64_t checksum64(const void* data, std::size_t bytes) {
  constexpr std::uint64_t PRIME = 0x100000001b3ULL;
  constexpr std::size_t LANES = 4;
  const auto* in = static_cast<const unsigned char*>(data);
  std::uint64_t lane[LANES] = {1, 2, 3, 4};
  const std::size_t words = bytes / sizeof(std::uint64_t);
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w = 0;
    std::memcpy(&w, in + i * sizeof(w), sizeof(w));
    lane[i % LANES] = (lane[i % LANES] ^ w) * PRIME + i;
  }
  for (std::size_t i = words * sizeof(std::uint64_t); i < bytes; ++i) {
    lane[0] = (lane[0] ^ in[i]) * PRIME;
  }
  std::uint64_t h = bytes;
  for (std::uint64_t v : lane) {
    h = (h ^ v) * PRIME;
  }
  return h;
}

} // namespace acme::tools::calibrate
